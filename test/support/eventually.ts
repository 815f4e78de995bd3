/**
 * Retries `probe` until it stops throwing, for what happens after a response: notifications
 * written by event listeners, log lines written when a response finishes.
 */
export async function eventually<T>(probe: () => T | Promise<T>, timeoutMs = 3000): Promise<T> {
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
