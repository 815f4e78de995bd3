/** The least a probe gets: CI runners share two cores among browsers, databases and kb processes. */
const MIN_TIMEOUT_MS = 30_000;

/**
 * Retries `probe` until it stops throwing, for what happens after a response: notifications
 * written by event listeners, log lines written when a response finishes. A longer wait only
 * delays a failure: it never lets a wrong outcome pass.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  requestedMs = MIN_TIMEOUT_MS,
): Promise<T> {
  const timeoutMs = Math.max(requestedMs, MIN_TIMEOUT_MS);
  const started = Date.now();
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
