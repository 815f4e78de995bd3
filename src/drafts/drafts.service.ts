import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../common/auth/auth-user';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import { isUniqueViolation } from '../common/database/unique-violation';
import { cursorPosition, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { NotFoundProblem, PayloadTooLargeProblem } from '../common/problems/problem';
import { assertValidKey, parseDraftBody } from './draft-rules';
import { DraftSummary, toDraftSummary } from './drafts.mapper';
import { DraftsRepository } from './drafts.repository';
import { DraftEntity } from './entities/draft.entity';

/** Private per-user drafts. Every query is scoped to the owner, so another user's key is "not found". */
@Injectable()
export class DraftsService {
  constructor(
    private readonly drafts: DraftsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(owner: AuthUser, key: string): Promise<DraftEntity> {
    assertValidKey(key);
    const draft = await this.drafts.find(owner.id, key);
    if (!draft) throw new NotFoundProblem('draft');
    return draft;
  }

  /** Creates or replaces the draft; `created` tells the controller 201 from 200. */
  async put(
    owner: AuthUser,
    key: string,
    body: unknown,
    now = new Date(),
  ): Promise<{ draft: DraftEntity; created: boolean }> {
    const { document, title, size } = parseDraftBody(key, body);
    const max = this.config.draftMaxBytes;
    if (size > max) {
      throw new PayloadTooLargeProblem(
        'draft_too_large',
        `A draft may be at most ${max} bytes of JSON; this one is ${size}.`,
        { maxBytes: max },
      );
    }
    const existing = await this.drafts.find(owner.id, key);
    if (existing)
      return { draft: await this.replace(existing, document, title, size, now), created: false };
    const draft = Object.assign(new DraftEntity(), {
      id: randomUUID(),
      userId: owner.id,
      key,
      title,
      document,
      size,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.drafts.insert(draft);
      return { draft, created: true };
    } catch (error) {
      // Two first saves of the same key raced: the other one created it, so this one replaces it.
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.drafts.find(owner.id, key);
      if (!winner) throw error;
      return { draft: await this.replace(winner, document, title, size, now), created: false };
    }
  }

  async remove(owner: AuthUser, key: string): Promise<void> {
    assertValidKey(key);
    if (!(await this.drafts.delete(owner.id, key))) throw new NotFoundProblem('draft');
  }

  /** The caller's drafts, most recently saved first (summaries without content). */
  async list(owner: AuthUser, page: ListRequest): Promise<Paged<DraftSummary>> {
    const rows = await this.drafts.listOfUser(
      owner.id,
      cursorPosition(page.cursor),
      page.limit + 1,
    );
    return toPaged(rows, page.limit, toDraftSummary, (d) => ({
      at: d.updatedAt.toISOString(),
      id: d.id,
    }));
  }

  private async replace(
    draft: DraftEntity,
    document: Record<string, unknown>,
    title: string | null,
    size: number,
    now: Date,
  ): Promise<DraftEntity> {
    const changes = { document, title, size, updatedAt: now };
    await this.drafts.update(draft.id, changes);
    return Object.assign(draft, changes);
  }
}
