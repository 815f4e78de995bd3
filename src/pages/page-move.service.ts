import { Injectable } from '@nestjs/common';
import { AuthUser } from '../common/auth/auth-user';
import { Database, Tx } from '../common/database/database';
import { isUniqueViolation } from '../common/database/unique-violation';
import { PAGE_MOVED, PAGE_UPDATED } from '../common/events/domain-events';
import { Outbox } from '../common/events/outbox';
import { audit } from '../common/logging/audit';
import {
  ConflictProblem,
  FieldProblem,
  FieldProblems,
  NotFoundProblem,
} from '../common/problems/problem';
import { pacer } from '../common/workers/pacer';
import { MovePagesDto, MoveResultResponse } from './dto/page-move.dto';
import { PageState, stateOf } from './model/page-state';
import type { WriteOptions } from './page-writer.service';
import { ProtectedPathsService } from './protection/protected-paths.service';
import { PageDeriver } from './page-deriver';
import { rewriteMovedLinks } from './rendering/moved-links';
import { normaliseSlugField, slugProblems } from './model/slug';
import type { PageRecord } from './model/page-columns';
import type { MovePlanItem } from './store/page-moves';
import { PagesRepository } from './store/pages.repository';

/** The most pages one move takes along (a folder move of a whole handbook). */
export const MAX_MOVE_PAGES = 10_000;

/** The summary of the revision a move writes in a page whose links it rewrote. */
export const LINKS_UPDATED_SUMMARY = 'Links updated after a move';

/** Pages loaded and written per slice of the move's transaction. */
const BATCH = 100;

interface PlannedMove extends MovePlanItem {
  to: string;
}

interface Rewrite {
  page: PageRecord;
  content: string;
}

/** What a move wrote, for its events after the commit. */
interface Written {
  moved: { page: PageRecord; from: string; to: string; revision: number }[];
  rewritten: { page: PageRecord; revision: number }[];
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * POST /api/pages/move: a page, or a folder (the page and every page under it), takes a new
 * slug in one transaction written in slices (the event loop keeps answering; SQLite's other
 * writers are told it is moving). Each moved page gets a revision (`moved`); its old slug
 * becomes a redirect to it (store/redirects.ts). With `rewriteLinks`, the pages the mover can
 * see that link to an old slug get a revision with the links pointing at the new slugs.
 */
@Injectable()
export class PageMoveService {
  constructor(
    private readonly db: Database,
    private readonly pages: PagesRepository,
    private readonly deriver: PageDeriver,
    private readonly outbox: Outbox,
    private readonly protectedPaths: ProtectedPathsService,
  ) {}

  async move(
    body: MovePagesDto,
    actor: AuthUser,
    options: WriteOptions = {},
  ): Promise<MoveResultResponse> {
    const from = normaliseSlugField(body.from);
    const to = normaliseSlugField(body.to);
    const subtree = body.subtree === true;
    checkSlugs(from, to, subtree);

    const plan = await this.plan(from, to, subtree, actor);
    if (!options.changeRequest && !body.dryRun)
      await this.protectedPaths.checkDirectWrite([from, to, ...plan.map((p) => p.to)], actor);
    const movedTo = new Map(plan.map((p) => [p.slug, p.to]));
    const rewrites = body.rewriteLinks ? await this.rewrites(plan, movedTo, actor) : new Map();
    const answer = (revisionOf: (page: PageRecord) => number): MoveResultResponse => ({
      dryRun: body.dryRun === true,
      moved: plan.filter((p) => p.visible).map((p) => ({ from: p.slug, to: p.to })),
      hiddenMoved: plan.filter((p) => !p.visible).length,
      rewritten: [...rewrites.values()]
        .map((r: Rewrite) => ({
          slug: movedTo.get(r.page.slug) ?? r.page.slug,
          revision: revisionOf(r.page),
        }))
        .sort((a, b) => compare(a.slug, b.slug)),
    });
    if (body.dryRun) return answer((page) => page.revision + 1);

    const written = await this.write(from, subtree, plan, rewrites, actor, options).catch(
      (error: unknown) => {
        if (isUniqueViolation(error)) throw movedMeanwhile();
        throw error;
      },
    );
    this.announce(from, to, subtree, written, actor);
    const revisions = new Map<string, number>();
    for (const w of [...written.moved, ...written.rewritten]) revisions.set(w.page.id, w.revision);
    return answer((page) => revisions.get(page.id) ?? page.revision + 1);
  }

  /** The pages that move and their new slugs; 404, 422 and 409 before anything is written. */
  private async plan(
    from: string,
    to: string,
    subtree: boolean,
    actor: AuthUser,
  ): Promise<PlannedMove[]> {
    const found = await this.pages.movePlan(actor, from, subtree, MAX_MOVE_PAGES + 1);
    if (!found.some((p) => p.visible && (subtree || p.slug === from)))
      throw new NotFoundProblem('page');
    if (found.length > MAX_MOVE_PAGES)
      throw new FieldProblems([
        {
          field: 'from',
          code: 'move_too_large',
          message: `A move takes at most ${MAX_MOVE_PAGES} pages along.`,
        },
      ]);
    const plan = found.map((p) => ({ ...p, to: to + p.slug.slice(from.length) }));
    const problems = new Map<string, FieldProblem>();
    for (const p of plan)
      for (const problem of slugProblems(p.to, 'to', true))
        problems.set(problem.code, {
          ...problem,
          message: `${problem.message} (${p.slug} would become ${p.to})`,
        });
    if (problems.size > 0) throw new FieldProblems([...problems.values()]);
    const sources = new Set(plan.map((p) => p.slug));
    const taken = [...(await this.pages.liveSlugsAmong(plan.map((p) => p.to)))]
      .filter((slug) => !sources.has(slug))
      .sort(compare);
    if (taken.length > 0) throw slugsTaken(taken);
    return plan;
  }

  /** The visible pages whose links name an old slug, with their rewritten Markdown. */
  private async rewrites(
    plan: PlannedMove[],
    movedTo: Map<string, string>,
    actor: AuthUser,
  ): Promise<Map<string, Rewrite>> {
    // Links to an older slug of a moving page (an earlier move's redirect) are rewritten too.
    const newSlugOf = new Map(plan.map((p) => [p.id, p.to]));
    const targets = new Map(movedTo);
    for (const r of await this.pages.redirectsOfPages([...newSlugOf.keys()]))
      targets.set(r.from, newSlugOf.get(r.pageId)!);
    const linking = await this.pages.pagesLinkingTo(actor, [...targets.keys()]);
    const rewrites = new Map<string, Rewrite>();
    const tick = pacer();
    for (let i = 0; i < linking.length; i += BATCH) {
      for (const page of await this.pages.findByIds(linking.slice(i, i + BATCH).map((l) => l.id))) {
        const after = movedTo.get(page.slug) ?? page.slug;
        const content = rewriteMovedLinks(page.content, page.slug, after, (slug) =>
          targets.get(slug),
        );
        if (content !== page.content) rewrites.set(page.id, { page, content });
        await tick();
      }
    }
    return rewrites;
  }

  /** Everything in one transaction, in slices; 409 when a page changed since the plan. */
  private write(
    from: string,
    subtree: boolean,
    plan: PlannedMove[],
    rewrites: Map<string, Rewrite>,
    actor: AuthUser,
    options: WriteOptions,
  ): Promise<Written> {
    const tick = pacer();
    const now = new Date();
    return this.db.transaction(async (tx) => {
      if ((await this.pages.countInScope(from, subtree, tx)) !== plan.length)
        throw movedMeanwhile();
      // A page that takes the slug of another moving page: that one steps aside first.
      const targets = new Set(plan.map((p) => p.to));
      for (const p of plan) if (targets.has(p.slug)) await this.pages.parkLiveSlug(p.id, tx);
      const written: Written = { moved: [], rewritten: [] };
      for (let i = 0; i < plan.length; i += BATCH) {
        const batch = plan.slice(i, i + BATCH);
        const byId = new Map(
          (
            await this.pages.findByIds(
              batch.map((p) => p.id),
              tx,
            )
          ).map((page) => [page.id, page]),
        );
        for (const p of batch) {
          const page = byId.get(p.id);
          if (!page || page.revision !== p.revision) throw movedMeanwhile();
          const content = rewrites.get(p.id)?.content ?? page.content;
          const revision = await this.writeState(
            page,
            { slug: p.to, content },
            'moved',
            actor,
            tx,
            options.summary,
          );
          written.moved.push({ page, from: p.slug, to: p.to, revision });
          await this.outbox.record(tx, PAGE_MOVED, {
            pageId: page.id,
            slug: p.to,
            from: p.slug,
            title: page.title,
            revision,
            ownerId: page.ownerId,
            actorId: actor.id,
          });
          this.db.heartbeat();
          await tick();
        }
      }
      const redirects = plan
        .filter((p) => !targets.has(p.slug))
        .map((p) => ({ fromSlug: p.slug, pageId: p.id, createdAt: now, createdBy: actor.id }));
      for (let i = 0; i < redirects.length; i += BATCH) {
        await this.pages.putRedirects(redirects.slice(i, i + BATCH), tx);
        this.db.heartbeat();
        await tick();
      }
      const moving = new Set(plan.map((p) => p.id));
      for (const rewrite of rewrites.values()) {
        if (moving.has(rewrite.page.id)) continue;
        const page = rewrite.page;
        const revision = await this.writeState(
          page,
          { content: rewrite.content },
          'updated',
          actor,
          tx,
          LINKS_UPDATED_SUMMARY,
        );
        written.rewritten.push({ page, revision });
        await this.outbox.record(tx, PAGE_UPDATED, {
          pageId: page.id,
          slug: page.slug,
          title: page.title,
          revision,
          ownerId: page.ownerId,
          actorId: actor.id,
          summary: LINKS_UPDATED_SUMMARY,
        });
        this.db.heartbeat();
        await tick();
      }
      return written;
    }, options.tx);
  }

  /** One page's new revision through the page writes' conditional update (409 when stale). */
  private async writeState(
    page: PageRecord,
    change: Partial<Pick<PageState, 'slug' | 'content'>>,
    action: 'moved' | 'updated',
    actor: AuthUser,
    tx: Tx,
    summary?: string,
  ): Promise<number> {
    const groups = page.groupNames.length === 0 ? [] : await this.pages.groupsOf(page.id, tx);
    const previous = stateOf(page, groups);
    const state = { ...previous, ...change };
    const revision = await this.pages.updateIfAt(
      {
        pageId: page.id,
        baseRevision: page.revision,
        state,
        derived: this.deriver.deriveWithoutHtml(state),
        actorId: actor.id,
        action,
        previous,
        summary,
      },
      tx,
    );
    if (revision === null) throw movedMeanwhile();
    return revision;
  }

  /** After the commit: one audit line for the move (its events are in the outbox). */
  private announce(
    from: string,
    to: string,
    subtree: boolean,
    written: Written,
    actor: AuthUser,
  ): void {
    audit('page.moved', {
      actorId: actor.id,
      target: `page:${written.moved.find((m) => m.from === from)?.page.id ?? from}`,
      from,
      to,
      subtree,
      moved: written.moved.length,
      rewritten: written.rewritten.length,
    });
  }
}

/** 422 for slugs no move can take: invalid, the same, or a folder into itself. */
function checkSlugs(from: string, to: string, subtree: boolean): void {
  const problems = [...slugProblems(from, 'from', false), ...slugProblems(to, 'to', true)];
  if (problems.length === 0 && from === to)
    problems.push({ field: 'to', code: 'same_slug', message: 'The page already has this slug.' });
  if (problems.length === 0 && subtree && to.startsWith(`${from}/`))
    problems.push({
      field: 'to',
      code: 'move_into_itself',
      message: 'A folder cannot move into itself.',
    });
  if (problems.length > 0) throw new FieldProblems(problems);
}

function slugsTaken(slugs: string[]): ConflictProblem {
  return new ConflictProblem(
    'slug_taken',
    `Live pages use ${slugs.length === 1 ? 'the slug' : 'these slugs'}: ${slugs.join(', ')}. Nothing was moved.`,
    { slugs },
  );
}

function movedMeanwhile(): ConflictProblem {
  return new ConflictProblem(
    'revision_conflict',
    'Pages changed while moving; nothing was moved. Try again.',
  );
}
