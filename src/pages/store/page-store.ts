import { Inject, Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { PageGroupEntity } from '../entities/page-group.entity';
import { PageLinkEntity } from '../entities/page-link.entity';
import { PageMediaRefEntity } from '../entities/page-media-ref.entity';
import { PageRevisionEntity, RevisionMetadata } from '../entities/page-revision.entity';
import { PageTagEntity } from '../entities/page-tag.entity';
import { PageEntity } from '../entities/page.entity';
import { insertRows } from './bulk-insert';
import { extractMediaIds } from '../rendering/links';
import { MarkdownRenderer } from '../rendering/markdown-renderer';
import type { PageState } from '../page-input.service';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from './search/page-search-index';
import { SiteVariablesService } from '../site-variables.service';
import { mergeVariables } from '../variables';

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * The derived data a write stores beside the page state: rendered HTML (null: render on the
 * first read, which stores it), links, media.
 */
export interface Derived {
  html: string | null;
  htmlSiteVersion: number;
  links: string[];
  mediaIds: string[];
}

export function metadataOf(state: PageState): RevisionMetadata {
  return {
    icon: state.icon,
    language: state.language,
    tags: state.tags,
    lifecycle: state.lifecycle,
    ownerId: state.ownerId,
    reviewIntervalDays: state.reviewIntervalDays,
    nextReviewAt: state.nextReviewAt ? state.nextReviewAt.toISOString() : null,
    groups: state.groups.map((g) => g.name),
    deprecatedTarget: state.deprecatedTarget,
    properties: state.properties,
    variables: state.variables,
    verified: state.verified,
  };
}

function columnsOf(state: PageState) {
  return {
    slug: state.slug,
    liveSlug: state.slug,
    title: state.title,
    content: state.content,
    icon: state.icon,
    language: state.language,
    tags: state.tags,
    groupNames: state.groups.map((g) => g.name),
    lifecycle: state.lifecycle,
    ownerId: state.ownerId,
    reviewIntervalDays: state.reviewIntervalDays,
    nextReviewAt: state.nextReviewAt,
    deprecatedTarget: state.deprecatedTarget,
    properties: state.properties,
    variables: state.variables,
    verified: state.verified,
  };
}

/**
 * Persistence of page writes, always inside the caller's transaction (`manager`): the page row,
 * its revision, the relation tables and the search index move together.
 */
@Injectable()
export class PageStore {
  constructor(
    private readonly renderer: MarkdownRenderer,
    private readonly siteVariables: SiteVariablesService,
    @Optional() @Inject(PAGE_SEARCH_INDEX) private readonly searchIndex?: PageSearchIndex,
  ) {}

  /**
   * Renders and extracts what a state stores; done before the transaction where possible.
   * `siteVersion`: the site-variables version when the caller already read it (with the page row).
   */
  async derive(state: PageState, manager?: EntityManager, siteVersion?: number): Promise<Derived> {
    const site = await this.siteVariables.get(manager, siteVersion);
    const rendered = this.renderer.renderPage(
      state.content,
      mergeVariables(site.values, state.variables),
      state.slug,
    );
    return {
      html: rendered.html,
      htmlSiteVersion: site.version,
      links: rendered.links.filter((slug) => slug !== state.slug),
      mediaIds: extractMediaIds(state.content),
    };
  }

  /**
   * Links and media without rendering (imports): the HTML is left to the first read, which
   * renders it once and stores it, so later reads render nothing either.
   */
  deriveWithoutHtml(state: PageState): Derived {
    return {
      html: null,
      htmlSiteVersion: 0,
      links: this.renderer.extractLinks(state.content, state.slug).filter((s) => s !== state.slug),
      mediaIds: extractMediaIds(state.content),
    };
  }

  async insert(
    manager: EntityManager,
    state: PageState,
    derived: Derived,
    actorId: string | null,
    action: string,
    now = new Date(),
  ): Promise<PageEntity> {
    const page = Object.assign(new PageEntity(), {
      id: randomUUID(),
      ...columnsOf(state),
      html: derived.html,
      htmlSiteVersion: derived.htmlSiteVersion,
      revision: 1,
      createdAt: now,
      createdBy: actorId,
      updatedAt: now,
      updatedBy: actorId,
      binnedAt: null,
      binnedBy: null,
    });
    await insertRows(manager, PageEntity, [page]);
    await this.writeRevision(manager, page.id, 1, state, actorId, action, now);
    await this.replaceRelations(manager, page.id, state, derived, null);
    return page;
  }

  /**
   * The conflict check: UPDATE ... WHERE id = ? AND revision = ? on a live page. Exactly one
   * of several writers based on the same revision changes the row; the others see 0 rows.
   */
  async updateIfAt(
    manager: EntityManager,
    pageId: string,
    baseRevision: number,
    state: PageState,
    derived: Derived,
    actorId: string | null,
    action: string,
    previous?: PageState,
    now = new Date(),
  ): Promise<number | null> {
    const result = await manager
      .createQueryBuilder()
      .update(PageEntity)
      .set({
        ...columnsOf(state),
        html: derived.html,
        htmlSiteVersion: derived.htmlSiteVersion,
        revision: baseRevision + 1,
        updatedAt: now,
        updatedBy: actorId,
      })
      .where('id = :id AND revision = :revision AND live_slug IS NOT NULL', {
        id: pageId,
        revision: baseRevision,
      })
      .execute();
    if (!result.affected) return null;
    await this.writeRevision(manager, pageId, baseRevision + 1, state, actorId, action, now);
    await this.replaceRelations(manager, pageId, state, derived, previous ?? 'unknown');
    return baseRevision + 1;
  }

  private async writeRevision(
    manager: EntityManager,
    pageId: string,
    revision: number,
    state: PageState,
    authorId: string | null,
    action: string,
    now: Date,
  ): Promise<void> {
    await insertRows(manager, PageRevisionEntity, [
      {
        id: randomUUID(),
        pageId,
        revision,
        slug: state.slug,
        title: state.title,
        content: state.content,
        metadata: metadataOf(state),
        action,
        authorId,
        createdAt: now,
      },
    ]);
  }

  /**
   * Writes tags, groups, links and media references, and the search document. `before` is the
   * state being replaced (only what changed is rewritten), null for a new page, or 'unknown'.
   */
  private async replaceRelations(
    manager: EntityManager,
    pageId: string,
    state: PageState,
    derived: Derived,
    before: PageState | null | 'unknown',
  ): Promise<void> {
    const known = before === 'unknown' ? null : before;
    const changed = (same: (b: PageState) => boolean) =>
      before === 'unknown' || (known !== null && !same(known));
    const fresh = before === null;
    const clear = async (
      entity:
        | typeof PageTagEntity
        | typeof PageGroupEntity
        | typeof PageMediaRefEntity
        | typeof PageLinkEntity,
      column: string,
    ) => {
      await manager
        .createQueryBuilder()
        .delete()
        .from(entity)
        .where(`${column} = :pageId`, { pageId })
        .execute();
    };
    const tagsChanged = changed((b) => sameList(b.tags, state.tags));
    if (fresh || tagsChanged) {
      if (tagsChanged) await clear(PageTagEntity, 'page_id');
      if (state.tags.length)
        await insertRows(
          manager,
          PageTagEntity,
          state.tags.map((tag) => ({ pageId, tag })),
        );
    }
    const groupsChanged = changed((b) =>
      sameList(
        b.groups.map((g) => g.id),
        state.groups.map((g) => g.id),
      ),
    );
    if (fresh || groupsChanged) {
      if (groupsChanged) await clear(PageGroupEntity, 'page_id');
      if (state.groups.length)
        await insertRows(
          manager,
          PageGroupEntity,
          state.groups.map((g) => ({ pageId, groupId: g.id })),
        );
    }
    // Links resolve relative to the slug, so a move rewrites them as well.
    const sourceChanged = changed((b) => b.content === state.content && b.slug === state.slug);
    if (fresh || sourceChanged) {
      // Media references depend on the content only; most edits keep them as they were.
      const mediaChanged =
        sourceChanged &&
        (known === null || !sameList(extractMediaIds(known.content), derived.mediaIds));
      if (sourceChanged) await clear(PageLinkEntity, 'source_page_id');
      if (mediaChanged) await clear(PageMediaRefEntity, 'page_id');
      if (derived.links.length)
        await insertRows(
          manager,
          PageLinkEntity,
          derived.links.map((targetSlug) => ({ sourcePageId: pageId, targetSlug })),
        );
      if ((fresh || mediaChanged) && derived.mediaIds.length)
        await insertRows(
          manager,
          PageMediaRefEntity,
          derived.mediaIds.map((mediaId) => ({ pageId, mediaId })),
        );
    }
    if (
      fresh ||
      tagsChanged ||
      changed((b) => b.title === state.title && b.content === state.content)
    ) {
      await this.searchIndex?.upsert(manager, {
        pageId,
        title: state.title,
        content: state.content,
        tags: state.tags,
      });
    }
  }

  /** Takes a page out of (or puts it back into) the search index with the bin. */
  async indexLive(manager: EntityManager, page: PageEntity): Promise<void> {
    await this.searchIndex?.upsert(manager, {
      pageId: page.id,
      title: page.title,
      content: page.content,
      tags: page.tags,
    });
  }

  async unindex(manager: EntityManager, pageId: string): Promise<void> {
    await this.searchIndex?.remove(manager, pageId);
  }

  /** Group ids and names of a page (its stored group names resolved through page_groups). */
  async groupsOf(manager: EntityManager, pageId: string): Promise<{ id: string; name: string }[]> {
    const rows: { id: string; name: string }[] = await manager
      .createQueryBuilder()
      .select('g.id', 'id')
      .addSelect('g.name', 'name')
      .from(PageGroupEntity, 'pg')
      .innerJoin('access_groups', 'g', 'g.id = pg.group_id')
      .where('pg.page_id = :pageId', { pageId })
      .orderBy('g.name', 'ASC')
      .getRawMany();
    return rows;
  }
}
