/**
 * Cooperative slicing for long work on the event loop (conversions, a move's transaction):
 * `await tick()` between items yields (setImmediate) once `sliceMs` of work has passed since
 * the last yield, so a big task never holds other requests up for long, and costs nothing on
 * a small one. One pacer per task; no shared state.
 */
export function pacer(sliceMs = 10): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
