import type { Worker } from 'node:cluster';
import type { ClusterMessage } from './cluster-messages';
import { WorkerCounterStore } from './cluster-rate-limits';

type Sent = Extract<ClusterMessage, { kb: 'rate-store' }>;

/** A worker whose channel delivers (`fails` undefined) or fails each send as Node does. */
function fakeWorker(sent: Sent[], fails?: Error): Worker {
  return {
    isConnected: () => true,
    send: (message: Sent, callback?: (error: Error | null) => void) => {
      sent.push(message);
      process.nextTick(() => callback?.(fails ?? null));
      return !fails;
    },
  } as unknown as Worker;
}

/** `promise`'s outcome, or 'pending' when it has none within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | Error | 'pending'> {
  return Promise.race([
    promise.catch((error: Error) => error),
    new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms)),
  ]);
}

describe('WorkerCounterStore (the rate counters of KB_WORKERS, asked of a worker)', () => {
  it("answers with the worker's total", async () => {
    const sent: Sent[] = [];
    const store = new WorkerCounterStore(() => [fakeWorker(sent)]);
    const total = store.add('k', 3, new Date(60_000));
    await new Promise((resolve) => process.nextTick(resolve));
    expect(sent).toEqual([{ kb: 'rate-store', id: 1, op: 'add', key: 'k', hits: 3, at: 60_000 }]);
    store.answered({ kb: 'rate-store-answer', id: 1, total: 7 });
    await expect(total).resolves.toBe(7);
  });

  it('fails a question at once when the message cannot reach the worker (its channel closed)', async () => {
    const sent: Sent[] = [];
    const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
    const store = new WorkerCounterStore(() => [fakeWorker(sent, epipe)]);
    const outcome = await within(store.read('k'), 1_000);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('write EPIPE');
    expect(sent).toHaveLength(1);
  });
});
