import BetterSqlite3 from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointWorkerData } from './sqlite-checkpointer';

/**
 * The checkpoint worker: its own connection on the WAL database, copying committed WAL frames
 * into the database file every `intervalMs` (PRAGMA wal_checkpoint(PASSIVE): it never waits
 * for a lock and never blocks a writer or a reader), so the main thread's connection, which
 * has automatic checkpoints turned off, never spends a COMMIT copying a big import's WAL.
 */
function main(): void {
  const { file, intervalMs } = workerData as CheckpointWorkerData;
  const connection = new BetterSqlite3(file, { fileMustExist: true });
  // Another process's checkpoint (KB_WORKERS > 1) holds the lock: skip this round, never wait.
  connection.pragma('busy_timeout = 0');
  const checkpoint = () => {
    try {
      connection.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // SQLITE_BUSY or a transient error: the next round tries again.
    }
  };
  const timer = setInterval(checkpoint, intervalMs);
  parentPort!.on('message', (message: string) => {
    if (message !== 'close') return;
    clearInterval(timer);
    connection.close();
    parentPort!.postMessage('closed');
  });
  parentPort!.postMessage('ready');
}

main();
