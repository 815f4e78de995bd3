import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { InjectConfig } from '../../common/config/app-config';
import type { WorkersConfig } from '../../common/config/workers-config';
import type { PoolStats } from '../../common/database/database';
import { KbMetrics } from '../../common/metrics/kb-metrics';
import { WorkerPool } from '../../common/workers/worker-pool';
import { MarkdownRenderer, RenderedPage } from './markdown-renderer';
import { mayHoldDiagram } from './diagrams';
import { mayHoldRichContent } from './rich-content';

/**
 * What a render worker receives: a page to render with its links (MarkdownRenderer.renderPage)
 * or Markdown to render to HTML alone (MarkdownRenderer.render: previews, print).
 */
export type RenderRequest = { markdown: string; variables: Record<string, string> } & (
  { kind: 'page'; baseSlug: string } | { kind: 'html'; baseSlug: string | null }
);

/**
 * Markdown shorter than this renders on the calling thread: measured, a 1,000-character page
 * renders in ~0.37 ms, about what the round trip to a worker costs the main thread; a 5 KB
 * page takes ~1.9 ms.
 */
export const MIN_OFFLOADED_CHARS = 1_000;

/**
 * Longest a render holding a diagram waits for a render worker to start: a layout
 * blocks the thread that waits for it (up to the diagram time cap), so it is not done here.
 */
const WORKER_START_WAIT_MS = 30_000;

const WORKER_ENTRY = `${__dirname}/render-worker${__filename.slice(__filename.lastIndexOf('.'))}`;

/**
 * Markdown renders (page writes, reads of a page whose stored HTML is missing or stale,
 * previews, print) in worker threads (KB_RENDER_WORKERS, default 1; 0 renders on the main
 * thread): markdown-it and sanitize-html are pure CPU, about a fifth of an update's time on
 * the event loop. The workers start with the first render that needs them; until one is ready,
 * and when one fails, the Markdown renders here with the same MarkdownRenderer, so the HTML is
 * the same either way.
 */
@Injectable()
export class RenderPool implements OnModuleDestroy {
  private readonly pool: WorkerPool<RenderRequest, RenderedPage> | null;

  constructor(
    private readonly renderer: MarkdownRenderer,
    @InjectConfig('workers') workers: WorkersConfig,
    metrics: KbMetrics,
  ) {
    this.pool =
      workers.renderThreads > 0
        ? new WorkerPool(WORKER_ENTRY, undefined, workers.renderThreads, 'render', true)
        : null;
    metrics.addWorkerPool(() => this.stats());
  }

  /** MarkdownRenderer.renderPage, in a worker when the page is long enough to gain. */
  async renderPage(
    markdown: string,
    variables: Record<string, string>,
    baseSlug: string,
  ): Promise<RenderedPage> {
    return (
      (await this.offload({ kind: 'page', markdown, variables, baseSlug })) ??
      this.renderer.renderPage(markdown, variables, baseSlug)
    );
  }

  /** MarkdownRenderer.render (the HTML alone), in a worker when the Markdown is long enough. */
  async render(
    markdown: string,
    variables: Record<string, string>,
    baseSlug: string | null,
  ): Promise<string> {
    const rendered = await this.offload({ kind: 'html', markdown, variables, baseSlug });
    return rendered?.html ?? this.renderer.render(markdown, variables, { baseSlug });
  }

  /** The worker's answer, or undefined when the render is to be done here. */
  private async offload(request: RenderRequest): Promise<RenderedPage | undefined> {
    const pool = this.pool;
    if (!pool) return undefined;
    // Short Markdown renders here, unless it may hold code or math: highlight.js and KaTeX
    // are loaded (and do their work) in the workers.
    const { markdown } = request;
    if (markdown.length < MIN_OFFLOADED_CHARS && !mayHoldRichContent(markdown)) return undefined;
    pool.start();
    if (!pool.ready && mayHoldDiagram(markdown)) await this.workerStarted(pool);
    if (!pool.ready) return undefined;
    try {
      return await pool.run(request);
    } catch {
      // The worker died with the render in hand (it is being replaced): render here, or, for
      // a diagram, in the worker that replaces it.
      if (!mayHoldDiagram(markdown)) return undefined;
      await this.workerStarted(pool);
      return pool.ready ? pool.run(request).catch(() => undefined) : undefined;
    }
  }

  /** Waits (up to WORKER_START_WAIT_MS) until a worker of `pool` is ready. */
  private async workerStarted(pool: WorkerPool<RenderRequest, RenderedPage>): Promise<void> {
    const deadline = Date.now() + WORKER_START_WAIT_MS;
    while (!pool.ready && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
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
