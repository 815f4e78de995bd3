import cluster, { Worker } from 'node:cluster';
import type { LoggerService } from '@nestjs/common';
import { AggregatorRegistry, Gauge, MetricObjectWithValues, MetricValue } from 'prom-client';
import { ClusterMessage, isClusterMessage } from './cluster-messages';
import { ClusterRateLimits } from './cluster-rate-limits';

/** How long /metrics waits for a worker's registry before it sums the others without it. */
const METRICS_COLLECT_MS = 2000;

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
 * (graceful-shutdown.ts); the primary exits when all have, with the worst of their exit codes.
 * A worker that dies otherwise is logged and replaced.
 */
export async function runPrimary(workers: number, logger: LoggerService): Promise<number> {
  return new ClusterPrimary(workers, logger).run();
}

/** A promise with its settle functions at hand. */
interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type StartLine = Record<string, unknown>;

class ClusterPrimary {
  private readonly lock = new WriteLockQueue();
  /** /metrics collections waiting for a worker's registry, by id. */
  private readonly collecting = new Map<number, (metrics: unknown[]) => void>();
  private collections = 0;
  private readonly ready = new Set<Worker>();
  /** Only ready workers serve the counter store: one still starting has no listener yet. */
  private readonly rates = new ClusterRateLimits(() => [...this.ready]);
  private stopping = false;
  /** The worst exit code so far: the primary's own. */
  private worst = 0;
  private firstLine: StartLine | undefined;
  private readonly firstReady = deferred<void>();
  /** Every worker is ready (with the first one's start line), or one could not start (its code). */
  private readonly allReady = deferred<StartLine>();
  /** Every worker has exited: the worst exit code. */
  private readonly allExited = deferred<number>();

  constructor(
    private readonly workers: number,
    private readonly logger: LoggerService,
  ) {}

  async run(): Promise<number> {
    cluster.on('message', (worker: Worker, message: unknown) => this.onMessage(worker, message));
    cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) =>
      this.onExit(worker, code, signal),
    );
    // A message to a worker whose channel is closing (it is exiting) fails with EPIPE, emitted
    // as the worker's 'error': logged, never the primary's end. Its exit is handled above.
    cluster.on('fork', (worker: Worker) =>
      worker.on('error', (error: Error) =>
        this.logger.warn({
          msg: 'a message to a worker was not delivered',
          pid: worker.process.pid,
          error: error.message,
        }),
      ),
    );
    const stop = (signal: NodeJS.Signals) => this.stop(signal);
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);

    // A worker that failed to start said why in its output; the primary ends with its code.
    const started = this.allReady.promise.then(
      (line) => this.logger.log({ ...line, workers: this.workers }, 'Main'),
      () => undefined,
    );
    cluster.fork();
    await Promise.race([this.firstReady.promise, this.allExited.promise]);
    if (!this.stopping) for (let i = 1; i < this.workers; i++) cluster.fork();
    await Promise.race([started, this.allExited.promise]);
    return this.allExited.promise;
  }

  private onMessage(worker: Worker, message: unknown): void {
    if (!isClusterMessage(message)) return;
    switch (message.kb) {
      case 'write-lock-acquire':
        return this.lock.acquire(worker, message.id);
      case 'write-lock-release':
        return this.lock.release(worker, message.id);
      case 'write-lock-progress':
        return this.lock.progress(worker);
      case 'metrics-request':
        return this.sendMetrics(worker, message.id);
      case 'metrics-collected':
        return this.collecting.get(message.id)?.(message.metrics);
      case 'rate-hit':
        return this.rates.hit(worker, message);
      case 'rate-store-answer':
        return this.rates.answered(message);
      case 'ready':
        return this.workerReady(worker, message.line);
      case 'collab':
        // Co-editing without REDIS_URL: each worker's sessions hear the others' (collab-fanout.ts).
        for (const other of Object.values(cluster.workers ?? {}))
          if (other && other !== worker && other.isConnected()) other.send(message);
        return;
    }
  }

  private sendMetrics(worker: Worker, id: number): void {
    this.clusterMetrics().then(
      (text) => worker.send({ kb: 'metrics-answer', id, text }),
      (error: Error) => worker.send({ kb: 'metrics-answer', id, error: error.message }),
    );
  }

  /**
   * The ready workers' registries, summed (prom-client's aggregators). A worker still starting
   * is not asked, and one that does not answer in time is left out rather than failing the
   * scrape; `kb_cluster_workers_reporting` says how many are in the sum.
   */
  private async clusterMetrics(): Promise<string> {
    const asked = [...this.ready].filter((worker) => worker.isConnected());
    const answers = await Promise.all(asked.map((worker) => this.collect(worker)));
    const reported = answers.filter((metrics) => metrics !== undefined);
    const registry = AggregatorRegistry.aggregate(
      reported as MetricObjectWithValues<MetricValue<string>>[][],
    );
    new Gauge({
      name: 'kb_cluster_workers_reporting',
      help: 'HTTP worker processes whose metrics this answer sums (KB_WORKERS > 1).',
      registers: [registry],
    }).set(reported.length);
    return registry.metrics();
  }

  private collect(worker: Worker): Promise<unknown[] | undefined> {
    const id = ++this.collections;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.collecting.delete(id);
        resolve(undefined);
      }, METRICS_COLLECT_MS);
      this.collecting.set(id, (metrics) => {
        clearTimeout(timer);
        this.collecting.delete(id);
        resolve(metrics);
      });
      worker.send({ kb: 'metrics-collect', id } satisfies ClusterMessage);
    });
  }

  private workerReady(worker: Worker, line: StartLine): void {
    this.ready.add(worker);
    this.firstLine ??= line;
    this.firstReady.resolve();
    if (this.ready.size === this.workers) this.allReady.resolve(this.firstLine);
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    this.lock.forget(worker);
    this.rates.workerExited(worker);
    const wasReady = this.ready.delete(worker);
    const status = code ?? (signal ? 1 : 0);
    // A worker that died and was replaced is logged, not carried into the primary's exit code:
    // that code tells how the service started and stopped.
    if (this.stopping || !wasReady) this.worst = Math.max(this.worst, status);
    if (!this.stopping && !wasReady) {
      // A worker that cannot start (configuration, database) will not start when forked again.
      this.stopping = true;
      this.allReady.reject(status || 1);
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
    } else if (!this.stopping) {
      this.logger.error({
        msg: 'a worker exited; starting another',
        pid: worker.process.pid,
        code,
        signal,
      });
      cluster.fork();
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) this.allExited.resolve(this.worst);
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.stopping) return;
    this.stopping = true;
    this.logger.log(
      { msg: `${signal}: passing it to the ${this.workers} workers`, signal },
      'Main',
    );
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  }
}
