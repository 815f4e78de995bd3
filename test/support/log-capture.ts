export { eventually } from './eventually';

/** A JSON log line as kb writes it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LogLine = Record<string, any>;

export interface LogCapture {
  /** Every JSON line written to stdout since the capture began (other output is ignored). */
  lines(): LogLine[];
  stop(): void;
}

/**
 * Captures what this process writes to stdout (the app's JsonLogger) until stop(). Captures
 * nest: an inner one takes the lines while it runs, then the outer one resumes.
 */
export function captureLogs(): LogCapture {
  const lines: LogLine[] = [];
  let partial = '';
  const previous = process.stdout.write;
  const passThrough = previous.bind(process.stdout) as (text: string) => boolean;
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    partial += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const text of complete) {
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        passThrough(text + '\n');
      }
    }
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }) as typeof process.stdout.write;
  return {
    lines: () => [...lines],
    stop: () => {
      process.stdout.write = previous;
    },
  };
}
