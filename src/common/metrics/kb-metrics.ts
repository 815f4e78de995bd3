import type { NextFunction, Request, Response } from 'express';
import { monitorEventLoopDelay, IntervalHistogram } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import {
  answerMetricsCollection,
  clusterMetricsText,
  inClusterWorker,
} from '../cluster/cluster-worker';
import type { Database, PoolStats } from '../database/database';

/** Sampling resolution of the event-loop delay monitor (ms): fine enough for a 25 ms target. */
const LOOP_RESOLUTION_MS = 10;
const NS_PER_SECOND = 1e9;
/** Request duration buckets (seconds): the targets are 25-150 ms, timeouts 10 s. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * kb's Prometheus metrics, one registry per process (with KB_WORKERS > 1, /metrics answers
 * every worker's, aggregated by the primary): the event-loop delay (perf_hooks'
 * monitorEventLoopDelay), the database queues (writer, read pool, connection pool), the other
 * worker pools (`addWorkerPool`: Markdown renders) and request
 * counts and durations by route. The event-loop quantiles cover the time since the previous
 * scrape, so a benchmark scrapes once before and once after its run.
 */
export class KbMetrics {
  readonly registry = new Registry();
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({
    resolution: LOOP_RESOLUTION_MS,
  });
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly workerPools: (() => PoolStats[])[] = [];

  constructor(private readonly db: Database) {
    this.loop.enable();
    this.requests = new Counter({
      name: 'kb_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'kb_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.eventLoopGauges();
    this.poolGauges();
    // KB_WORKERS > 1: the primary collects this registry from every ready worker and sums it
    // (the event-loop delay: the worst worker's).
    if (inClusterWorker()) answerMetricsCollection(this.registry);
  }

  /** Express middleware counting every answer (registered first, so it sees them all). */
  middleware() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const route = routeOf(req);
        const seconds = Number(process.hrtime.bigint() - started) / NS_PER_SECOND;
        this.requests.inc({ method: req.method, route, status: String(res.statusCode) });
        this.durations.observe({ method: req.method, route }, seconds);
      });
      next();
    };
  }

  /** Reports a worker pool's queue beside the database's (`kb_worker_pool_*`). */
  addWorkerPool(stats: () => PoolStats[]): void {
    this.workerPools.push(stats);
  }

  /** The text exposition format; every process reported starts a new event-loop window. */
  render(): Promise<string> {
    return inClusterWorker() ? clusterMetricsText() : this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  stop(): void {
    this.loop.disable();
  }

  private eventLoopGauges(): void {
    const loop = this.loop;
    new Gauge({
      name: 'kb_event_loop_delay_seconds',
      help: 'Event-loop delay since the previous scrape (perf_hooks.monitorEventLoopDelay), by quantile.',
      labelNames: ['quantile'],
      registers: [this.registry],
      aggregator: 'max',
      collect() {
        const seconds = (ns: number) => (Number.isFinite(ns) ? ns / NS_PER_SECOND : 0);
        this.set({ quantile: '0.5' }, seconds(loop.percentile(50)));
        this.set({ quantile: '0.99' }, seconds(loop.percentile(99)));
        this.set({ quantile: '1' }, seconds(loop.max));
        // Read once per scrape, in whichever process is collected: the next window starts now.
        loop.reset();
      },
    });
  }

  /** A gauge a feature reads when /metrics is scraped (with KB_WORKERS > 1: summed). */
  addGauge(name: string, help: string, read: () => number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  private poolGauges(): void {
    const db = this.db;
    new Gauge({
      name: 'kb_db_pool_queue_length',
      help: 'Database work waiting for its turn, by queue (sqlite_writer, sqlite_readers, mysql).',
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        for (const stats of db.poolStats()) this.set({ pool: stats.pool }, stats.waiting);
      },
    });
    new Gauge({
      name: 'kb_db_pool_active',
      help: 'Database work running now, by queue (sqlite_writer, sqlite_readers, mysql).',
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        for (const stats of db.poolStats()) this.set({ pool: stats.pool }, stats.active);
      },
    });
    const workerPools = () => this.workerPools.flatMap((stats) => stats());
    new Gauge({
      name: 'kb_worker_pool_queue_length',
      help: 'Work waiting for a worker thread, by pool (render).',
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        for (const stats of workerPools()) this.set({ pool: stats.pool }, stats.waiting);
      },
    });
    new Gauge({
      name: 'kb_worker_pool_active',
      help: 'Worker threads busy now, by pool (render).',
      labelNames: ['pool'],
      registers: [this.registry],
      collect() {
        for (const stats of workerPools()) this.set({ pool: stats.pool }, stats.active);
      },
    });
  }
}

/** The matched route's pattern (bounded label values), or `unmatched` (404s, static files). */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? route.path : 'unmatched';
}
