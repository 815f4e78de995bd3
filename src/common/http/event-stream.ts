import type { Request, Response } from 'express';

/** How often an idle stream sends a comment line, so proxies keep it open. */
const KEEPALIVE_MS = 15_000;

export interface EventStream {
  /** One event; with `id`, a client that reconnects sends it back as `Last-Event-ID`. */
  send(event: string, data: unknown, id?: string): void;
  end(): void;
}

/**
 * Answers with a Server-Sent Events stream once `start` has resolved (so its 404 and other
 * problems are still ordinary answers); `start` returns the function that stops the source,
 * called when the client goes or the stream ends.
 */
export async function openEventStream(
  req: Request,
  res: Response,
  start: (stream: EventStream) => Promise<() => void>,
): Promise<void> {
  const pending: string[] = [];
  let open = false;
  let ended = false;
  const timers: NodeJS.Timeout[] = [];
  let stop: () => void = () => undefined;
  const finish = () => {
    timers.forEach(clearInterval);
    stop();
  };
  const stream: EventStream = {
    send: (event, data, id) => {
      const chunk = `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      if (open) res.write(chunk);
      else pending.push(chunk);
    },
    end: () => {
      ended = true;
      if (open) {
        finish();
        res.end();
      }
    },
  };
  stop = await start(stream);
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  open = true;
  for (const chunk of pending) res.write(chunk);
  if (ended) {
    finish();
    res.end();
    return;
  }
  timers.push(setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS));
  req.on('close', finish);
}
