import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { UsersService } from '../auth/public-api';
import type { Tx } from '../common/database/database';
import { RenderPool } from '../pages/public-api';
import type { CommentRecord, StoredAnchor } from './comment-columns';
import { CONTEXT_LENGTH, MAX_QUOTE_LENGTH } from './anchoring';
import { CommentRow, CommentsRepository } from './comments.repository';
import { MAX_COMMENT_LENGTH } from './dto/comment.dto';

/** A comment as an archive carries it (a page entry's `comments`, docs/comments.md). */
export interface ArchiveComment {
  id: string;
  threadId: string;
  parentId: string | null;
  /** The author's username (null: unknown or gone). */
  author: string | null;
  body: string;
  anchor: StoredAnchor | null;
  outdated: boolean;
  resolvedAt: string | null;
  createdAt: string;
  editedAt: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isDate(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(new Date(value).getTime());
}

function readAnchor(raw: unknown): StoredAnchor | null | undefined {
  if (raw === null || raw === undefined) return null;
  const a = raw as Record<string, unknown>;
  if (
    typeof a.quote !== 'string' ||
    a.quote.length === 0 ||
    a.quote.length > MAX_QUOTE_LENGTH ||
    typeof a.prefix !== 'string' ||
    a.prefix.length > CONTEXT_LENGTH ||
    typeof a.suffix !== 'string' ||
    a.suffix.length > CONTEXT_LENGTH ||
    !Number.isSafeInteger(a.start) ||
    !Number.isSafeInteger(a.end)
  )
    return undefined;
  return {
    quote: a.quote,
    prefix: a.prefix,
    suffix: a.suffix,
    start: Math.max(0, a.start as number),
    end: Math.max(0, a.end as number),
  };
}

/**
 * A page entry's `comments` from an untrusted manifest: each field checked (ids, sizes, dates,
 * anchors); entries that fail are left out. Undefined when the entry has no `comments`.
 */
export function readArchiveComments(raw: unknown): ArchiveComment[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const comments: ArchiveComment[] = [];
  for (const item of raw.slice(0, 10_000) as Record<string, unknown>[]) {
    if (!item || typeof item !== 'object') continue;
    const anchor = readAnchor(item.anchor);
    if (
      typeof item.id !== 'string' ||
      !UUID.test(item.id) ||
      typeof item.threadId !== 'string' ||
      !UUID.test(item.threadId) ||
      (item.parentId !== null &&
        (typeof item.parentId !== 'string' || !UUID.test(item.parentId))) ||
      (item.author !== null && typeof item.author !== 'string') ||
      typeof item.body !== 'string' ||
      item.body.trim() === '' ||
      item.body.length > MAX_COMMENT_LENGTH ||
      anchor === undefined ||
      !isDate(item.createdAt) ||
      (item.resolvedAt !== null && !isDate(item.resolvedAt)) ||
      (item.editedAt !== null && !isDate(item.editedAt))
    )
      continue;
    comments.push({
      id: item.id,
      threadId: item.threadId,
      parentId: item.parentId as string | null,
      author: item.author as string | null,
      body: item.body,
      anchor,
      outdated: item.outdated === true,
      resolvedAt: item.resolvedAt as string | null,
      createdAt: item.createdAt,
      editedAt: item.editedAt as string | null,
    });
  }
  return comments;
}

function toArchiveComment(c: CommentRow): ArchiveComment {
  return {
    id: c.id,
    threadId: c.threadId,
    parentId: c.parentId,
    author: c.author?.username ?? null,
    body: c.body,
    anchor: c.anchor,
    outdated: c.outdated,
    resolvedAt: c.id === c.threadId ? (c.resolvedAt?.toISOString() ?? null) : null,
    createdAt: c.createdAt.toISOString(),
    editedAt: c.editedAt?.toISOString() ?? null,
  };
}

/**
 * The comments of archived pages, for the archive export (only pages the caller may see are
 * exported, and only their comments) and the kb-archive import (which restores them with the
 * pages: a page's comments in the archive replace those it has).
 */
@Injectable()
export class CommentsArchive {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly users: UsersService,
    private readonly renders: RenderPool,
  ) {}

  /** The comments of each page, by page id (every page named has an entry). */
  async ofPages(pageIds: string[]): Promise<Map<string, ArchiveComment[]>> {
    const byPage = new Map<string, ArchiveComment[]>(pageIds.map((id) => [id, []]));
    for (const c of await this.comments.allOfPages(pageIds))
      byPage.get(c.pageId)?.push(toArchiveComment(c));
    return byPage;
  }

  /**
   * Makes `comments` the comments of the imported page `pageId`, in `tx` (those it had are
   * dropped). Each comment gets a new id (an archive may be imported twice, under two
   * prefixes); threads and replies keep their shape; authors are matched by username; a reply
   * whose thread is not in the archive is left out. Anchors are matched again at the next read.
   */
  async restore(tx: Tx, pageId: string, slug: string, comments: ArchiveComment[]): Promise<number> {
    await this.comments.deleteOfPage(pageId, tx);
    const ids = new Map(comments.map((c) => [c.id, randomUUID()]));
    const authors = new Map<string, string | null>();
    const rows: CommentRecord[] = [];
    for (const c of comments) {
      const threadId = ids.get(c.threadId);
      if (!threadId) continue;
      if (c.author !== null && !authors.has(c.author))
        authors.set(c.author, (await this.users.findActiveByUsername(c.author))?.id ?? null);
      const created = new Date(c.createdAt);
      rows.push({
        id: ids.get(c.id)!,
        pageId,
        threadId,
        parentId: c.parentId === null ? null : (ids.get(c.parentId) ?? threadId),
        authorId: c.author === null ? null : (authors.get(c.author) ?? null),
        body: c.body,
        html: await this.renders.render(c.body, {}, slug),
        anchor: c.anchor,
        outdated: c.outdated,
        anchorRevision: c.anchor ? 0 : null,
        resolvedAt: c.resolvedAt ? new Date(c.resolvedAt) : null,
        resolvedBy: null,
        createdAt: created,
        updatedAt: created,
        editedAt: c.editedAt ? new Date(c.editedAt) : null,
      });
    }
    await this.comments.insertMany(rows, tx);
    return rows.length;
  }
}
