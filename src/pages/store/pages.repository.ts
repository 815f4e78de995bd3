import { Inject, Injectable, Optional } from '@nestjs/common';
import { brokenLinks, LinkReportPosition } from './link-report';
import { randomUUID } from 'node:crypto';
import { Database, Tx } from '../../common/database/database';
import { findUsedMediaIds } from '../../common/text/media-urls';
import { Derived, metadataOf, PageState, stateColumns } from '../model/page-state';
import { PageHead, PageRecord } from '../model/page-columns';
import type { RevisionRecord } from '../model/revision-columns';
import type { ReviewDuePage } from '../model/page-shapes';
import * as lists from './page-lists';
import { listTreeLevel } from './page-tree';
import * as reads from './page-reads';
import { PageRow } from './page-rows';
import * as writes from './page-writes';
import * as moves from './page-moves';
import * as redirects from './redirects';
import {
  findRevision,
  insertRevision,
  listRevisions,
  revisionText,
  setCoAuthors,
  usernameOf,
} from './revisions';
import { PAGE_SEARCH_INDEX, PageSearchIndex } from './search/page-search-index';
import { countPage } from './tag-counts';
import { toViewer, Viewer } from './visibility-sql';

/** A new page: the state, what is derived from it, who writes it and why. */
export interface PageInsert {
  state: PageState;
  derived: Derived;
  actorId: string | null;
  /** The revision's action: created | updated | restored | imported | moved. */
  action: string;
  /** The revision's change summary (already checked: revision-summary.ts); absent: none. */
  summary?: string | null;
  /** Usernames of the others who typed in the live session this revision ends (collab). */
  coAuthors?: string[];
  now?: Date;
}

/** A change to a live page at `baseRevision`. */
export interface PageUpdate extends PageInsert {
  pageId: string;
  baseRevision: number;
  /** The state being replaced (only what changed is rewritten); absent: rewrite all. */
  previous?: PageState;
}

function relationsOf(state: PageState, derived?: Derived): writes.PageRelations {
  return {
    slug: state.slug,
    title: state.title,
    content: state.content,
    tags: state.tags,
    groupIds: state.groups.map((g) => g.id),
    links: derived?.links ?? [],
    mediaIds: derived?.mediaIds ?? findUsedMediaIds(state.content),
  };
}

/**
 * The one door to the pages tables (pages, page_revisions, page_tags, page_groups, page_links,
 * page_media_refs) and the page search index. Methods are named for what they do and take an
 * optional transaction last; writes without one run in a transaction of their own. Single-page
 * reads run at once; reads over many rows go through `Database.read` (a worker's connection,
 * once there is a pool). The SQL itself is in plain functions beside this class (page-reads,
 * page-lists, page-writes, revisions), which a worker thread can run without Nest.
 */
@Injectable()
export class PagesRepository {
  constructor(
    private readonly db: Database,
    @Optional() @Inject(PAGE_SEARCH_INDEX) private readonly index?: PageSearchIndex,
  ) {}

  // Single pages

  findLiveRow(slug: string, tx?: Tx): Promise<PageRow | null> {
    return reads.findLiveRow(this.db.sql(tx), slug);
  }

  findLiveHead(slug: string, tx?: Tx): Promise<PageRow<PageHead> | null> {
    return reads.findLiveHead(this.db.sql(tx), slug);
  }

  findRowById(id: string, tx?: Tx): Promise<PageRow | null> {
    return reads.findRowById(this.db.sql(tx), id);
  }

  findLive(slug: string, tx?: Tx): Promise<PageRecord | null> {
    return reads.findLive(this.db.sql(tx), slug);
  }

  findById(id: string, tx?: Tx): Promise<PageRecord | null> {
    return reads.findById(this.db.sql(tx), id);
  }

  liveSlugTaken(slug: string, tx?: Tx): Promise<boolean> {
    return reads.liveSlugTaken(this.db.sql(tx), slug);
  }

  findLiveBySlugs(slugs: string[], tx?: Tx): Promise<PageRecord[]> {
    return reads.findLiveBySlugs(this.db.sql(tx), slugs);
  }

  findLiveUnder(prefix: string, tx?: Tx): Promise<PageRecord[]> {
    return reads.findLiveUnder(this.db.sql(tx), prefix);
  }

  groupsOf(pageId: string, tx?: Tx): Promise<{ id: string; name: string }[]> {
    return reads.groupsOf(this.db.sql(tx), pageId);
  }

  backlinks(
    pageId: string,
    slug: string,
    viewer: Viewer,
  ): Promise<{ slug: string; title: string }[]> {
    return reads.backlinks(this.db.sql(), pageId, slug, viewer);
  }

  /** Link targets of the page that are no live page `viewer` may see (kb-missing). */
  missingLinkTargets(pageId: string, viewer: Viewer): Promise<string[]> {
    return reads.missingLinkTargets(this.db.sql(), pageId, viewer);
  }

  visibleAt(slug: string, viewer: Viewer, subtree: boolean): Promise<boolean> {
    return reads.visibleAt(this.db.sql(), slug, viewer, subtree);
  }

  // Lists

  listRecent(
    viewer: Viewer,
    filter: { tag?: string; after?: { updatedAt: Date; id: string } },
    limit: number,
  ) {
    return this.db.read(lists.listRecent, toViewer(viewer), filter, limit);
  }

  listTags(viewer: Viewer, after: string | undefined, limit: number) {
    return this.db.read(lists.listTags, toViewer(viewer), after, limit);
  }

  /** One level of the page tree below `parent` ('' for the top), by segment name. */
  listTreeLevel(viewer: Viewer, parent: string, after: string | undefined, limit: number) {
    return this.db.read(listTreeLevel, toViewer(viewer), parent, after, limit);
  }

  /** Broken links and missing media in the visible pages under `prefix` (read worker). */
  brokenLinks(
    viewer: Viewer,
    prefix: string | null,
    from: LinkReportPosition | null,
    limit: number,
  ) {
    return this.db.read(brokenLinks, toViewer(viewer), prefix, from, limit);
  }

  graph(viewer: Viewer) {
    return this.db.read(lists.graph, toViewer(viewer));
  }

  listBin(after: { binnedAt: Date; id: string } | undefined, limit: number) {
    return this.db.read(lists.listBin, after, limit);
  }

  listReviewDue(now: Date, limit: number, after?: Pick<ReviewDuePage, 'id' | 'nextReviewAt'>) {
    return this.db.read(lists.listReviewDue, now, limit, after);
  }

  /** Pages referencing a media item; `viewer` decides which are `listed` (all without one). */
  mediaReferences(mediaId: string, viewer?: Viewer) {
    return this.db.read(lists.mediaReferences, mediaId, viewer && toViewer(viewer));
  }

  visibleLiveSlugs(viewer: Viewer, slugs: string[]) {
    return this.db.read(lists.visibleLiveSlugs, toViewer(viewer), slugs);
  }

  archiveBatch(
    viewer: Viewer,
    slugs: string[] | undefined,
    afterSlug: string | null,
    limit: number,
  ) {
    return this.db.read(lists.archiveBatch, toViewer(viewer), slugs, afterSlug, limit);
  }

  // Revisions

  listRevisions(pageId: string, before: number | undefined, limit: number) {
    return this.db.read(listRevisions, pageId, before, limit);
  }

  findRevision(
    id: string,
    tx?: Tx,
  ): Promise<{ revision: RevisionRecord; author: string | null } | null> {
    return findRevision(this.db.sql(tx), id);
  }

  revisionText(pageId: string, revision: number, tx?: Tx) {
    return revisionText(this.db.sql(tx), pageId, revision);
  }

  usernameOf(userId: string | null): Promise<string | null> {
    return usernameOf(this.db.sql(), userId);
  }

  // Writes

  /** Writes a new page with its first revision, relations and search document. */
  insert(input: PageInsert, tx?: Tx): Promise<PageRecord> {
    const now = input.now ?? new Date();
    return this.db.transaction(async ({ sql }) => {
      const page: PageRecord = {
        id: randomUUID(),
        ...stateColumns(input.state),
        html: input.derived.html,
        htmlSiteVersion: input.derived.htmlSiteVersion,
        revision: 1,
        createdAt: now,
        createdBy: input.actorId,
        updatedAt: now,
        updatedBy: input.actorId,
        binnedAt: null,
        binnedBy: null,
      };
      // A page created at an old slug replaces its redirect.
      await redirects.deleteRedirectsFrom(sql, [page.slug]);
      await writes.insertPage(sql, page);
      await this.writeRevision(sql, page.id, 1, input, now);
      await writes.replaceRelations(
        sql,
        this.index,
        page.id,
        relationsOf(input.state, input.derived),
        null,
      );
      return page;
    }, tx);
  }

  /**
   * The conflict check: `UPDATE ... WHERE id = ? AND revision = ?` on a live page, then the
   * revision and relations. Exactly one of several writers based on the same revision gets
   * the new revision number; the others get null and nothing is written.
   */
  updateIfAt(input: PageUpdate, tx?: Tx): Promise<number | null> {
    const now = input.now ?? new Date();
    const revision = input.baseRevision + 1;
    return this.db.transaction(async ({ sql }) => {
      const updated = await writes.updatePageIfAt(sql, input.pageId, input.baseRevision, {
        ...stateColumns(input.state),
        html: input.derived.html,
        htmlSiteVersion: input.derived.htmlSiteVersion,
        revision,
        updatedAt: now,
        updatedBy: input.actorId,
      });
      if (!updated) return null;
      if (input.previous?.slug !== input.state.slug)
        await redirects.deleteRedirectsFrom(sql, [input.state.slug]);
      await this.writeRevision(sql, input.pageId, revision, input, now);
      await writes.replaceRelations(
        sql,
        this.index,
        input.pageId,
        relationsOf(input.state, input.derived),
        input.previous ? relationsOf(input.previous) : 'unknown',
      );
      return revision;
    }, tx);
  }

  /** Stores HTML rendered on a read, unless the page moved on to another revision meanwhile. */
  storeHtml(pageId: string, revision: number, html: string, siteVersion: number): Promise<void> {
    return this.db.write(({ sql }) => writes.storeHtml(sql, pageId, revision, html, siteVersion));
  }

  /** Moves a live page at `revision` to the bin (frees its slug); false when it changed. */
  moveToBin(
    pageId: string,
    revision: number,
    actorId: string,
    now: Date,
    tx?: Tx,
  ): Promise<boolean> {
    return this.db.transaction(async ({ sql }) => {
      if (!(await writes.binPage(sql, pageId, revision, actorId, now))) return false;
      await countPage(sql, pageId, -1, { asLive: true });
      await this.index?.remove(sql, pageId);
      return true;
    }, tx);
  }

  /** Puts a binned page back under its slug; false when it is no longer in the bin. */
  restoreFromBin(page: PageRecord, tx?: Tx): Promise<boolean> {
    return this.db.transaction(async ({ sql }) => {
      if (!(await writes.unbinPage(sql, page.id, page.slug))) return false;
      await redirects.deleteRedirectsFrom(sql, [page.slug]);
      await countPage(sql, page.id, 1);
      await this.index?.upsert(sql, {
        pageId: page.id,
        title: page.title,
        content: page.content,
        tags: page.tags,
      });
      return true;
    }, tx);
  }

  /** Deletes a binned page for good, with its revisions, relations and search document. */
  purge(pageId: string, tx?: Tx): Promise<void> {
    return this.db.transaction(async ({ sql }) => {
      await this.index?.remove(sql, pageId);
      await writes.deleteBinnedPage(sql, pageId);
    }, tx);
  }

  // Moves

  /** The pages a move takes along, as the mover sees them (read worker). */
  movePlan(viewer: Viewer, from: string, subtree: boolean, limit: number) {
    return this.db.read(moves.movePlan, toViewer(viewer), from, subtree, limit);
  }

  countInScope(from: string, subtree: boolean, tx?: Tx): Promise<number> {
    return moves.countInScope(this.db.sql(tx), from, subtree);
  }

  liveSlugsAmong(slugs: readonly string[], tx?: Tx): Promise<Set<string>> {
    return moves.liveSlugsAmong(this.db.sql(tx), slugs);
  }

  /** Visible live pages linking to one of `slugs` (read worker). */
  pagesLinkingTo(viewer: Viewer, slugs: string[]) {
    return this.db.read(moves.pagesLinkingTo, toViewer(viewer), slugs);
  }

  findByIds(ids: readonly string[], tx?: Tx): Promise<PageRecord[]> {
    return moves.findByIds(this.db.sql(tx), ids);
  }

  parkLiveSlug(pageId: string, tx: Tx): Promise<void> {
    return moves.parkLiveSlug(tx.sql, pageId);
  }

  // Redirects (old slugs of moved pages)

  /** The live page an old slug redirects to, or null. */
  findRedirectTarget(fromSlug: string): Promise<PageHead | null> {
    return redirects.findRedirectTarget(this.db.sql(), fromSlug);
  }

  /** Old slugs of a page. */
  redirectsOf(pageId: string): Promise<string[]> {
    return redirects.redirectsOf(this.db.sql(), pageId);
  }

  listRedirects(after: string | undefined, limit: number) {
    return this.db.read(redirects.listRedirects, after, limit);
  }

  findRedirect(fromSlug: string, tx?: Tx): Promise<redirects.RedirectItem | null> {
    return redirects.findRedirect(this.db.sql(tx), fromSlug);
  }

  /** Redirects to the live pages among `slugs`, `{from, to}` (archives). */
  redirectsToSlugs(slugs: string[]) {
    return this.db.read(redirects.redirectsToSlugs, slugs);
  }

  /** The redirects to these pages, `{from, pageId}`. */
  redirectsOfPages(pageIds: readonly string[]): Promise<{ from: string; pageId: string }[]> {
    return redirects.redirectsOfPages(this.db.sql(), pageIds);
  }

  /** Which of `slugs` are old slugs of some page. */
  redirectedSlugs(slugs: readonly string[], tx?: Tx): Promise<Set<string>> {
    return redirects.redirectedSlugs(this.db.sql(tx), slugs);
  }

  deleteRedirectsFrom(slugs: readonly string[], tx?: Tx): Promise<number> {
    return this.db.transaction(({ sql }) => redirects.deleteRedirectsFrom(sql, slugs), tx);
  }

  /** Points old slugs at pages; an older redirect from the same slug is replaced. */
  putRedirects(rows: redirects.RedirectRecord[], tx?: Tx): Promise<void> {
    return this.db.transaction(async ({ sql }) => {
      await redirects.deleteRedirectsFrom(
        sql,
        rows.map((r) => r.fromSlug),
      );
      await redirects.insertRedirects(sql, rows);
    }, tx);
  }

  /** Co-authors for a revision written without them (a live session saved by a PUT). */
  async setCoAuthors(pageId: string, revision: number, coAuthors: string[]): Promise<void> {
    if (coAuthors.length > 0)
      await this.db.write((t) => setCoAuthors(t.sql, pageId, revision, coAuthors));
  }

  private writeRevision(
    sql: Tx['sql'],
    pageId: string,
    revision: number,
    input: PageInsert,
    now: Date,
  ): Promise<void> {
    return insertRevision(sql, {
      id: randomUUID(),
      pageId,
      revision,
      slug: input.state.slug,
      title: input.state.title,
      content: input.state.content,
      metadata: metadataOf(input.state),
      action: input.action,
      authorId: input.actorId,
      createdAt: now,
      summary: input.summary ?? null,
      coAuthors: input.coAuthors?.length ? input.coAuthors : null,
    });
  }
}
