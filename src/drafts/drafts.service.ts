import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../common/auth/auth-user';
import { InjectConfig } from '../common/config/app-config';
import type { PagesConfig } from '../common/config/pages-config';
import { Created } from '../common/http/created';
import { isUniqueViolation } from '../common/database/unique-violation';
import { cursorPosition, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { NotFoundProblem, PayloadTooLargeProblem } from '../common/problems/problem';
import { overLimitSentence } from '../common/text/byte-size';
import { draftDocument, draftPath } from './draft-rules';
import { DraftResponse, DraftSummary, toDraftResponse, toDraftSummary } from './drafts.mapper';
import { DraftsRepository } from './drafts.repository';
import { PutDraftBody } from './dto/put-draft.dto';
import { DraftEntity } from './entities/draft.entity';

/** Private per-user drafts. Every query is scoped to the owner, so another user's key is "not found". */
@Injectable()
export class DraftsService {
  constructor(
    private readonly drafts: DraftsRepository,
    @InjectConfig('pages') private readonly pagesConfig: PagesConfig,
  ) {}

  async get(owner: AuthUser, key: string): Promise<DraftResponse> {
    const draft = await this.drafts.find(owner.id, key);
    if (!draft) throw new NotFoundProblem('draft');
    return toDraftResponse(draft);
  }

  /** Creates (201 with Location) or replaces (200) the draft at `input.key`. */
  async put(
    owner: AuthUser,
    input: PutDraftBody,
    now = new Date(),
  ): Promise<DraftResponse | Created<DraftResponse>> {
    const { key } = input;
    const { document, title, size } = draftDocument(input);
    this.assertSize(document, size);
    const existing = await this.drafts.find(owner.id, key);
    if (existing) return toDraftResponse(await this.replace(existing, document, title, size, now));
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
      // The key's characters are all safe in a URL path.
      return new Created(toDraftResponse(draft), draftPath(key));
    } catch (error) {
      // Two first saves of the same key raced: the other one created it, so this one replaces it.
      if (!isUniqueViolation(error)) throw error;
      const winner = await this.drafts.find(owner.id, key);
      if (!winner) throw error;
      return toDraftResponse(await this.replace(winner, document, title, size, now));
    }
  }

  async remove(owner: AuthUser, key: string): Promise<void> {
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

  /**
   * A draft's text may be as long as a page's (PAGE_MAX_BYTES: the same 413 `page_too_large`
   * the page's save would get, so an editor learns it while typing), and the whole stored
   * document at most DRAFT_MAX_BYTES (the text, the base it started from, the editor's members).
   */
  private assertSize(document: Record<string, unknown>, size: number): void {
    const content = typeof document.content === 'string' ? document.content : '';
    const contentBytes = Buffer.byteLength(content, 'utf8');
    const pageMax = this.pagesConfig.maxBytes;
    if (contentBytes > pageMax) {
      throw new PayloadTooLargeProblem(
        'page_too_large',
        overLimitSentence('page', contentBytes, pageMax),
        { limit: pageMax },
      );
    }
    const max = this.pagesConfig.draftMaxBytes;
    if (size > max) {
      throw new PayloadTooLargeProblem('draft_too_large', overLimitSentence('draft', size, max), {
        maxBytes: max,
      });
    }
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
