import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../common/config/app-config';
import type { PoolStats } from '../../common/database/database';
import { KbMetrics } from '../../common/metrics/kb-metrics';
import { WorkerPool } from '../../common/workers/worker-pool';
import { MarkdownRenderer, RenderedPage } from './markdown-renderer';

/** What a render worker receives: MarkdownRenderer.renderPage's arguments. */
export interface RenderRequest {
  markdown: string;
  variables: Record<string, string>;
  baseSlug: string;
}

/**
 * Markdown shorter than this renders on the calling thread: measured, a 1,000-character page
 * renders in ~0.37 ms, about what the round trip to a worker costs the main thread; a 5 KB
 * page takes ~1.9 ms.
 */
export const MIN_OFFLOADED_CHARS = 1_000;

const WORKER_ENTRY = `${__dirname}/render-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/**
 * Page renders for writes and for reads of a page whose stored HTML is missing or stale, in
 * worker threads (KB_RENDER_WORKERS, default 1; 0 renders on the main thread): markdown-it and
 * sanitize-html are pure CPU, about a fifth of an update's time on the event loop. The workers
 * start with the first render that needs them; until one is ready, and when one fails, the
 * page renders here with the same MarkdownRenderer, so the HTML is the same either way.
 */
@Injectable()
export class RenderPool implements OnModuleDestroy {
  private readonly pool: WorkerPool<RenderRequest, RenderedPage> | null;

  constructor(
    private readonly renderer: MarkdownRenderer,
    @Inject(APP_CONFIG) config: AppConfig,
    metrics: KbMetrics,
  ) {
    this.pool =
      config.renderWorkers > 0
        ? new WorkerPool(WORKER_ENTRY, undefined, config.renderWorkers, 'render', true)
        : null;
    metrics.addWorkerPool(() => this.stats());
  }

  /** MarkdownRenderer.renderPage, in a worker when the page is long enough to gain. */
  async renderPage(
    markdown: string,
    variables: Record<string, string>,
    baseSlug: string,
  ): Promise<RenderedPage> {
    const pool = this.pool;
    if (pool && markdown.length >= MIN_OFFLOADED_CHARS) {
      pool.start();
      if (pool.ready) {
        try {
          return await pool.run({ markdown, variables, baseSlug });
        } catch {
          // The worker died with the render in hand (it is being replaced): render here.
        }
      }
    }
    return this.renderer.renderPage(markdown, variables, baseSlug);
  }

  /** Whether a worker can take a render now (a lazy pool: after the first long page). */
  get ready(): boolean {
    return this.pool?.ready ?? false;
  }

  /** Renders answered by a worker so far. */
  get served(): number {
    return this.pool?.served ?? 0;
  }

  stats(): PoolStats[] {
    return this.pool ? [this.pool.stats()] : [];
  }

  onModuleDestroy(): Promise<void> | undefined {
    return this.pool?.close();
  }
}
