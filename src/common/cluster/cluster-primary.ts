import cluster, { Worker } from 'node:cluster';
import type { LoggerService } from '@nestjs/common';
import { AggregatorRegistry } from 'prom-client';
import { ClusterMessage, isClusterMessage } from './cluster-messages';
import { ClusterRateLimits } from './cluster-rate-limits';

/**
 * The SQLite write lock across processes, held here: first come first served, handed to one
 * worker's writer turn (or group of turns) at a time. A worker that dies holding it loses it
 * (SQLite rolls its open transaction back when the process is gone).
 */
export class WriteLockQueue {
  private holder: { worker: Worker; id: number } | null = null;
  private readonly queue: { worker: Worker; id: number }[] = [];

  acquire(worker: Worker, id: number): void {
    this.queue.push({ worker, id });
    this.pump();
  }

  release(worker: Worker, id: number): void {
    if (this.holder?.worker === worker && this.holder.id === id) {
      this.holder = null;
      this.pump();
    }
  }

  /** The holder is making progress: the writes waiting in the other workers keep waiting. */
  progress(worker: Worker): void {
    if (this.holder?.worker !== worker) return;
    const waiting = new Set(this.queue.map((entry) => entry.worker));
    for (const other of waiting)
      if (other !== worker && other.isConnected())
        other.send({ kb: 'write-lock-progress' } satisfies ClusterMessage);
  }

  forget(worker: Worker): void {
    for (let i = this.queue.length - 1; i >= 0; i--)
      if (this.queue[i].worker === worker) this.queue.splice(i, 1);
    if (this.holder?.worker === worker) {
      this.holder = null;
      this.pump();
    }
  }

  private pump(): void {
    while (!this.holder && this.queue.length > 0) {
      const next = this.queue.shift()!;
      if (!next.worker.isConnected()) continue;
      this.holder = next;
      next.worker.send({ kb: 'write-lock-granted', id: next.id } satisfies ClusterMessage);
    }
  }
}

/**
 * KB_WORKERS > 1: this process forks the HTTP workers (each a whole kb app on the shared port)
 * and serves them: the SQLite write lock, the request rate counters, the aggregated /metrics,
 * one start line. The first
 * worker starts alone (it runs the migrations and creates the bootstrap admin), then the
 * others. SIGTERM/SIGINT are passed to every worker, which drains as a single process does
 * (graceful-shutdown.ts); the primary exits when all have, with the worst exit code. A worker
 * that dies otherwise is replaced.
 */
export async function runPrimary(workers: number, logger: LoggerService): Promise<number> {
  const lock = new WriteLockQueue();
  const aggregator = new AggregatorRegistry();
  const ready = new Set<Worker>();
  const rates = new ClusterRateLimits(() =>
    Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => !!worker),
  );
  let stopping = false;
  let worst = 0;
  let announce!: (line: Record<string, unknown>) => void;
  let failStart!: (code: number) => void;
  const allReady = new Promise<Record<string, unknown>>((resolve, reject) => {
    announce = resolve;
    failStart = (code) => reject(code);
  });
  let firstLine: Record<string, unknown> | undefined;
  let firstReady!: () => void;
  const firstIsReady = new Promise<void>((resolve) => (firstReady = resolve));

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isClusterMessage(message)) return;
    switch (message.kb) {
      case 'write-lock-acquire':
        return lock.acquire(worker, message.id);
      case 'write-lock-release':
        return lock.release(worker, message.id);
      case 'write-lock-progress':
        return lock.progress(worker);
      case 'metrics-request':
        aggregator.clusterMetrics().then(
          (text) => worker.send({ kb: 'metrics-answer', id: message.id, text }),
          (error: Error) =>
            worker.send({ kb: 'metrics-answer', id: message.id, error: error.message }),
        );
        return;
      case 'rate-hit':
        return rates.hit(worker, message);
      case 'rate-store-answer':
        return rates.answered(message);
      case 'ready':
        ready.add(worker);
        firstLine ??= message.line;
        firstReady();
        if (ready.size === workers) announce(firstLine);
        return;
    }
  });
  const exited = new Promise<number>((resolve) => {
    cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
      lock.forget(worker);
      rates.workerExited(worker);
      const wasReady = ready.delete(worker);
      const status = code ?? (signal ? 1 : 0);
      worst = Math.max(worst, status);
      if (!stopping && !wasReady) {
        // A worker that cannot start (configuration, database) will not start when forked again.
        stopping = true;
        failStart(status || 1);
        for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      } else if (!stopping) {
        logger.error({
          msg: 'a worker exited; starting another',
          pid: worker.process.pid,
          code,
          signal,
        });
        cluster.fork();
      }
      if (Object.keys(cluster.workers ?? {}).length === 0) resolve(worst);
    });
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log({ msg: `${signal}: passing it to the ${workers} workers`, signal }, 'Main');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  // A worker that failed to start said why in its output; the primary ends with its code.
  const started = allReady.then(
    (line) => logger.log({ ...line, workers }, 'Main'),
    () => undefined,
  );
  cluster.fork();
  await Promise.race([firstIsReady, exited]);
  if (!stopping) for (let i = 1; i < workers; i++) cluster.fork();
  await Promise.race([started, exited]);
  return exited;
}
