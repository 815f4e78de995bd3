import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { KbMetrics } from '../common/metrics/kb-metrics';

interface CollabGauges {
  documents: number;
  connections: number;
  lagSeconds: number;
}

/** Co-editing on /metrics: open documents, connections, updates, persistence lag. */
@Injectable()
export class CollabMetrics {
  private read: () => CollabGauges = () => ({ documents: 0, connections: 0, lagSeconds: 0 });
  private readonly updates: Counter;
  private readonly persists: Histogram;

  constructor(metrics: KbMetrics) {
    metrics.addGauge(
      'kb_collab_documents',
      'Pages with a live editing session open.',
      () => this.read().documents,
    );
    metrics.addGauge(
      'kb_collab_connections',
      'Open /collab WebSocket connections.',
      () => this.read().connections,
    );
    metrics.addGauge(
      'kb_collab_persistence_lag_seconds',
      'Age of the oldest document update received and not yet stored (0: all stored).',
      () => this.read().lagSeconds,
    );
    this.updates = new Counter({
      name: 'kb_collab_updates_total',
      help: 'Document updates received from editors (rate(): updates per second).',
      registers: [metrics.registry],
    });
    this.persists = new Histogram({
      name: 'kb_collab_persist_seconds',
      help: 'Time to store one batch of document updates.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [metrics.registry],
    });
  }

  observe(read: () => CollabGauges): void {
    this.read = read;
  }

  updated(): void {
    this.updates.inc();
  }

  persisted(seconds: number): void {
    this.persists.observe(seconds);
  }
}
