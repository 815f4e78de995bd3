import { Injectable, Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import {
  PAGE_MOVED,
  PAGE_RESTORED,
  PAGE_UPDATED,
  PageUpdatedEvent,
} from '../common/events/domain-events';
import type { PageRecord } from '../pages/public-api';
import { PagesService, SiteVariablesService } from '../pages/public-api';
import { RenderPool } from '../pages/public-api';
import { locate, pageText } from './anchoring';
import { CommentsRepository } from './comments.repository';

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many pages' text is kept (the text of a revision never changes). */
const TEXT_CACHE_SIZE = 32;

/**
 * Keeps inline threads on their passages: after every committed change of a page (an API write,
 * a restore, a co-editing save: `page.updated`, `page.restored`) and, for changes that record no
 * page event (imports), when a list finds anchors matched against an older revision. Each thread
 * is matched on its own turn of the event loop (anchoring.ts bounds the work of one), and the
 * result is stored only if no newer revision was matched meanwhile.
 */
@Injectable()
export class CommentAnchorsService {
  private readonly logger = new Logger('CommentAnchors');
  private readonly running = new Map<string, Promise<void>>();
  private readonly texts = new Map<string, { revision: number; text: string }>();

  constructor(
    private readonly comments: CommentsRepository,
    private readonly pages: PagesService,
    private readonly siteVariables: SiteVariablesService,
    private readonly renders: RenderPool,
  ) {}

  @OnEvent(PAGE_UPDATED, { async: true, promisify: true })
  @OnEvent(PAGE_RESTORED, { async: true, promisify: true })
  @OnEvent(PAGE_MOVED, { async: true, promisify: true })
  async onPageChanged(event: PageUpdatedEvent): Promise<void> {
    try {
      const [page] = await this.pages.findLiveBySlugs([event.slug]);
      if (page && page.id === event.pageId) await this.refresh(page);
    } catch (error) {
      this.logger.error(`Re-anchoring the comments of ${event.slug} failed: ${String(error)}`);
    }
  }

  /** The page's text as the page view shows it (anchoring.ts), by revision. */
  async textOf(page: PageRecord): Promise<string> {
    const cached = this.texts.get(page.id);
    if (cached && cached.revision === page.revision) return cached.text;
    const html =
      page.html ??
      (await this.renders.render(
        page.content,
        await this.siteVariables.resolveVariables(page),
        page.slug,
      ));
    const text = pageText(html);
    this.texts.delete(page.id);
    this.texts.set(page.id, { revision: page.revision, text });
    if (this.texts.size > TEXT_CACHE_SIZE) this.texts.delete(this.texts.keys().next().value!);
    return text;
  }

  /** Matches every inline thread of the page not yet matched against its revision. */
  async refresh(page: PageRecord): Promise<void> {
    const key = `${page.id}@${page.revision}`;
    const running = this.running.get(key);
    if (running) return running;
    const work = this.match(page).finally(() => this.running.delete(key));
    this.running.set(key, work);
    return work;
  }

  private async match(page: PageRecord): Promise<void> {
    const stale = (await this.comments.anchoredOf(page.id)).filter(
      (c) => c.anchor && (c.anchorRevision === null || c.anchorRevision < page.revision),
    );
    if (stale.length === 0) return;
    const text = await this.textOf(page);
    for (const comment of stale) {
      await yieldToEventLoop();
      const anchor = comment.anchor!;
      const span = locate(text, anchor);
      await this.comments.moveAnchor(
        comment.id,
        span ? { ...anchor, start: span.start, end: span.end } : anchor,
        span === null,
        page.revision,
      );
    }
  }
}
