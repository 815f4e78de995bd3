import { EventEmitter } from 'node:events';
import type { WriteLock } from './sqlite-writer';

/**
 * The SQLite write lock between kb apps in one process on one file (the peer instances of the
 * e2e tests, an embedding host). Without it they would meet at SQLite's own file lock, whose busy
 * timeout waits synchronously: one app's write would block the very event loop the other needs
 * to finish its open transaction, and both would stall for the whole timeout. KB_WORKERS
 * processes take turns at the primary's lock instead (`clusterWriteLock`).
 */
class ProcessWriteLock implements WriteLock {
  private held = false;
  private readonly queue: (() => void)[] = [];
  private readonly events = new EventEmitter().setMaxListeners(0);

  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.held = true;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.held = false;
          this.queue.shift()?.();
        });
      };
      if (this.held) this.queue.push(grant);
      else grant();
    });
  }

  progress(): void {
    this.events.emit('progress');
  }

  onProgress(listener: () => void): void {
    this.events.on('progress', listener);
  }
}

const locks = new Map<string, ProcessWriteLock>();

/** The one lock of the SQLite file `path` in this process. */
export function processWriteLock(path: string): WriteLock {
  let lock = locks.get(path);
  if (!lock) locks.set(path, (lock = new ProcessWriteLock()));
  return lock;
}
