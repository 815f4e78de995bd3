import type { Worker } from 'node:cluster';
import { WriteLockQueue } from './cluster-primary';

function fakeWorker(name: string, log: string[], connected = true): Worker {
  return {
    isConnected: () => connected,
    send: (message: { kb: string; id: number }) => {
      log.push(`${name}:${message.kb}:${message.id}`);
      return true;
    },
  } as unknown as Worker;
}

describe('WriteLockQueue (the SQLite write lock of KB_WORKERS)', () => {
  it('grants the lock to one worker at a time, first come first served', () => {
    const log: string[] = [];
    const lock = new WriteLockQueue();
    const a = fakeWorker('a', log);
    const b = fakeWorker('b', log);
    lock.acquire(a, 1);
    lock.acquire(b, 1);
    lock.acquire(a, 2);
    expect(log).toEqual(['a:write-lock-granted:1']);
    // A release by a worker that does not hold it changes nothing.
    lock.release(b, 1);
    expect(log).toEqual(['a:write-lock-granted:1']);
    lock.release(a, 1);
    expect(log).toEqual(['a:write-lock-granted:1', 'b:write-lock-granted:1']);
    lock.release(b, 1);
    expect(log).toEqual([
      'a:write-lock-granted:1',
      'b:write-lock-granted:1',
      'a:write-lock-granted:2',
    ]);
  });

  it('takes the lock back from a worker that died holding it, and drops its waiting requests', () => {
    const log: string[] = [];
    const lock = new WriteLockQueue();
    const a = fakeWorker('a', log);
    const b = fakeWorker('b', log);
    lock.acquire(a, 1);
    lock.acquire(a, 2);
    lock.acquire(b, 7);
    lock.forget(a);
    expect(log).toEqual(['a:write-lock-granted:1', 'b:write-lock-granted:7']);
  });

  it('skips a worker whose channel closed before its turn', () => {
    const log: string[] = [];
    const lock = new WriteLockQueue();
    const a = fakeWorker('a', log);
    lock.acquire(a, 1);
    lock.acquire(fakeWorker('gone', log, false), 1);
    lock.acquire(fakeWorker('c', log), 3);
    lock.release(a, 1);
    expect(log).toEqual(['a:write-lock-granted:1', 'c:write-lock-granted:3']);
  });
});

describe('WriteLockQueue progress', () => {
  it("passes the holder's progress to the workers waiting for the lock, and only the holder's", () => {
    const log: string[] = [];
    const lock = new WriteLockQueue();
    const a = fakeWorker('a', log);
    const b = fakeWorker('b', log);
    fakeWorker('idle', log);
    lock.acquire(a, 1);
    lock.acquire(b, 1);
    lock.acquire(b, 2);
    lock.progress(b);
    lock.progress(a);
    // b waits (twice, told once); the idle worker waits for nothing and hears nothing.
    expect(log).toEqual(['a:write-lock-granted:1', 'b:write-lock-progress:undefined']);
  });
});
