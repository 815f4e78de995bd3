import { get } from 'node:http';

export interface StreamEvent {
  event: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

export interface FollowedStream {
  status: number;
  contentType: string;
  events: StreamEvent[];
  /** Everything the server sent (for a problem document: its body). */
  body: string;
}

/**
 * Reads a Server-Sent Events answer to its end, calling `onEvent` for each event as it
 * arrives (the test can act in the middle of a stream).
 */
export function followEvents(
  url: string,
  headers: Record<string, string>,
  onEvent: (event: StreamEvent) => void = () => undefined,
): Promise<FollowedStream> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers }, (res) => {
      const events: StreamEvent[] = [];
      let body = '';
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const parsed = parseEvent(block);
          if (!parsed) continue;
          events.push(parsed);
          onEvent(parsed);
        }
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          events,
          body,
        }),
      );
      res.on('error', reject);
    });
    request.on('error', reject);
  });
}

function parseEvent(block: string): StreamEvent | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length === 0) return undefined;
  return { event, data: JSON.parse(data.join('\n')) };
}

/** An open Server-Sent Events answer: what arrived so far, waits for more, and closes. */
export interface OpenStream {
  status: number;
  /** Every event so far, with the `id` each carried (the last `id:` line before it). */
  events: (StreamEvent & { id?: string })[];
  /** Resolves with the first event (from the start) that `match` accepts; rejects after `ms`. */
  waitFor(
    match: (event: StreamEvent & { id?: string }) => boolean,
    ms?: number,
  ): Promise<StreamEvent & { id?: string }>;
  close(): void;
  /** Resolves when the server ends the answer. */
  ended: Promise<void>;
}

/** Opens a stream that never ends by itself (GET /api/events/stream) and keeps it open. */
export function openEvents(url: string, headers: Record<string, string>): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers }, (res) => {
      const events: (StreamEvent & { id?: string })[] = [];
      const waiters: (() => void)[] = [];
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let end: number;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const parsed = parseEvent(block);
          if (!parsed) continue;
          const id = /^id: (.*)$/m.exec(block)?.[1];
          events.push(id === undefined ? parsed : { ...parsed, id });
          waiters.splice(0).forEach((wake) => wake());
        }
      });
      res.on('error', () => undefined);
      const ended = new Promise<void>((done) => res.on('end', () => done()));
      resolve({
        ended,
        status: res.statusCode ?? 0,
        events,
        waitFor: (match, ms = 5000) =>
          new Promise((found, fail) => {
            const deadline = setTimeout(
              () => fail(new Error(`no matching event in ${ms} ms; got ${JSON.stringify(events)}`)),
              ms,
            );
            const check = () => {
              const hit = events.find(match);
              if (hit) {
                clearTimeout(deadline);
                found(hit);
              } else waiters.push(check);
            };
            check();
          }),
        close: () => request.destroy(),
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
  });
}
