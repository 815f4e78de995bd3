import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { Database } from '../database/database';
import { KbMetrics } from './kb-metrics';
import { MetricsController } from './metrics.controller';

/** `GET /metrics` and the collectors behind it (app.factory mounts the request counter). */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: KbMetrics, inject: [Database], useFactory: (db: Database) => new KbMetrics(db) },
  ],
  exports: [KbMetrics],
})
export class MetricsModule implements OnApplicationShutdown {
  constructor(private readonly metrics: KbMetrics) {}

  onApplicationShutdown(): void {
    this.metrics.stop();
  }
}
