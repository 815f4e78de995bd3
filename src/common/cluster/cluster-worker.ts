import cluster from 'node:cluster';
import type { Registry } from 'prom-client';
import type { WriteLock } from '../database/sqlite-writer';
import type { CounterStore } from '../rate-limit/counter-stores';
import { ClusterMessage, isClusterMessage } from './cluster-messages';

/** Whether this process is one of KB_WORKERS > 1 HTTP workers (node:cluster). */
export function inClusterWorker(): boolean {
  return cluster.isWorker;
}

/** This worker's number (1, 2, …), or undefined outside a cluster. */
export function clusterWorkerId(): number | undefined {
  return cluster.isWorker ? cluster.worker?.id : undefined;
}

function send(message: ClusterMessage): void {
  process.send?.(message);
}

let nextId = 0;
const pending = new Map<number, (message: ClusterMessage) => void>();
let listening = false;

/** One question to the primary, answered by the message with the same id. */
function ask<T extends ClusterMessage>(message: ClusterMessage & { id: number }): Promise<T> {
  if (!listening) {
    listening = true;
    process.on('message', (answer: unknown) => {
      if (!isClusterMessage(answer) || !('id' in answer)) return;
      if (
        answer.kb === 'write-lock-granted' ||
        answer.kb === 'metrics-answer' ||
        answer.kb === 'rate-count'
      ) {
        const resolve = pending.get(answer.id);
        pending.delete(answer.id);
        resolve?.(answer);
      }
    });
  }
  return new Promise<T>((resolve) => {
    pending.set(message.id, resolve as (message: ClusterMessage) => void);
    send(message);
  });
}

/**
 * The SQLite write lock held by the primary (cluster-primary.ts): a worker's writer takes it
 * for each turn or group of turns, so the processes' transactions never meet on the file's
 * lock and no SQLITE_BUSY can happen between them.
 */
export function clusterWriteLock(): WriteLock {
  let lastProgress = 0;
  return {
    crossProcess: true,
    acquire: async () => {
      const id = ++nextId;
      await ask({ kb: 'write-lock-acquire', id });
      return () => send({ kb: 'write-lock-release', id });
    },
    progress: () => {
      // At most once a second: it only has to come well within the writers' 30 s wait.
      const now = Date.now();
      if (now - lastProgress < 1000) return;
      lastProgress = now;
      send({ kb: 'write-lock-progress' });
    },
    onProgress: (listener) =>
      process.on('message', (message: unknown) => {
        if (isClusterMessage(message) && message.kb === 'write-lock-progress') listener();
      }),
  };
}

/**
 * Answers the primary's collection of this worker's metrics (cluster-primary.ts aggregates
 * the workers that answer); call once the registry is complete.
 */
export function answerMetricsCollection(registry: Registry): void {
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message) || message.kb !== 'metrics-collect') return;
    void registry
      .getMetricsAsJSON()
      .then((metrics) => send({ kb: 'metrics-collected', id: message.id, metrics }));
  });
}

/** Every ready worker's metrics, aggregated by the primary. */
export async function clusterMetricsText(): Promise<string> {
  const answer = await ask<Extract<ClusterMessage, { kb: 'metrics-answer' }>>({
    kb: 'metrics-request',
    id: ++nextId,
  });
  if (answer.text === undefined) throw new Error(answer.error ?? 'no metrics from the primary');
  return answer.text;
}

/** Tells the primary this worker listens; the primary logs the start line once all do. */
export function reportReady(line: Record<string, unknown>): void {
  send({ kb: 'ready', line });
}

/**
 * Counts one request against `key` in the primary's counters (cluster-primary.ts), which all
 * the workers share; answers the instance's count, other instances' hits included.
 */
export async function clusterRateHit(
  key: string,
  expiresAt: number,
  syncMs: number,
): Promise<number> {
  const answer = await ask<Extract<ClusterMessage, { kb: 'rate-count' }>>({
    kb: 'rate-hit',
    id: ++nextId,
    key,
    expiresAt,
    syncMs,
  });
  return answer.count;
}

/** Serves the primary's counters their shared store (this worker's database or Redis). */
export function serveRateStore(store: CounterStore): () => void {
  const listener = (message: unknown) => {
    if (!isClusterMessage(message) || message.kb !== 'rate-store') return;
    const { id, op, key, hits, at } = message;
    const work =
      op === 'add'
        ? store.add(key, hits, new Date(at))
        : op === 'read'
          ? store.read(key)
          : store.purge(new Date(at)).then(() => 0);
    work.then(
      (total) => send({ kb: 'rate-store-answer', id, total }),
      (error: unknown) =>
        send({
          kb: 'rate-store-answer',
          id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  };
  process.on('message', listener);
  return () => process.off('message', listener);
}
