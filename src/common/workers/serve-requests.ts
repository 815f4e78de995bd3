import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from './worker-pool';

/**
 * The worker side of a WorkerPool: answers each request with `handle`'s result, or with the
 * error it threw (message, name and driver code), and tells the pool it is ready. Call it once
 * the worker has loaded what it needs.
 */
export function serveRequests<Q, R>(handle: (request: Q) => R | Promise<R>): void {
  const port = parentPort!;
  port.on('message', ({ id, request }: WorkerRequest<Q>) => {
    void answer(id, request);
  });
  port.postMessage({ ready: true } satisfies WorkerReply<R>);

  async function answer(id: number, request: Q): Promise<void> {
    let reply: WorkerReply<R>;
    try {
      reply = { id, result: await handle(request) };
    } catch (error) {
      const e = error as Error & { code?: string };
      reply = { id, error: { message: e.message, name: e.name, code: e.code } };
    }
    port.postMessage(reply);
  }
}
