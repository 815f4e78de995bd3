import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { rowDecoder, selectList } from '../../common/database/column-defs';
import { Database, Tx } from '../../common/database/database';
import { insertRows } from '../../common/database/insert-rows';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { COLLAB_UPDATE_COLUMNS, COLLAB_UPDATE_KEYS, CollabUpdateRecord } from './collab-columns';

/** An update that changes nothing (no structs, no deletions), base64. */
const EMPTY_UPDATE = Buffer.from([0, 0]).toString('base64');

/** The same id for the same page and revision on every instance (a UUID-shaped hash). */
function claimId(pageId: string, revision: number): string {
  const hex = createHash('sha256').update(`${pageId}:${revision}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

const decode = rowDecoder(COLLAB_UPDATE_COLUMNS, COLLAB_UPDATE_KEYS) as (
  row: Record<string, unknown>,
) => CollabUpdateRecord;

/** What is stored of a page's shared document. */
export interface StoredDoc {
  /** The Yjs updates (order does not matter: Yjs merges them in any order). */
  updates: Uint8Array[];
  /** Row ids, for a compaction that replaces exactly these rows. */
  ids: string[];
  /** Ids of the people who typed since the previous revision. */
  authors: string[];
  /** The page revision the shared text was last written as; 0: nothing stored. */
  revision: number;
}

/** The one door to `collab_updates`. */
@Injectable()
export class CollabRepository {
  constructor(private readonly db: Database) {}

  async load(pageId: string, tx?: Tx): Promise<StoredDoc> {
    const rows = (
      await this.db
        .sql(tx)
        .all(
          `SELECT ${selectList(COLLAB_UPDATE_COLUMNS, COLLAB_UPDATE_KEYS, 'u')} ` +
            'FROM collab_updates u WHERE u.page_id = ?',
          [pageId],
        )
    ).map(decode);
    const authors = new Set<string>();
    for (const row of rows) for (const id of row.authors) authors.add(id);
    return {
      updates: rows.map((row) => new Uint8Array(Buffer.from(row.data, 'base64'))),
      ids: rows.map((row) => row.id),
      authors: [...authors].sort(),
      revision: rows.reduce((max, row) => Math.max(max, row.revision), 0),
    };
  }

  /** Appends one update (several merged); answers its row id. */
  async append(
    pageId: string,
    update: Uint8Array,
    authors: string[],
    revision: number,
    tx?: Tx,
  ): Promise<string> {
    const id = randomUUID();
    await this.db.write(
      (t) =>
        insertRows(t.sql, 'collab_updates', COLLAB_UPDATE_COLUMNS, [
          {
            id,
            pageId,
            data: Buffer.from(update).toString('base64'),
            authors,
            revision,
            createdAt: new Date(),
          },
        ]),
      tx,
    );
    return id;
  }

  /**
   * Claims the one application of the page's revision `revision` to the shared document (an
   * API write seen by every instance with the page open): true for the first to ask.
   */
  async claim(pageId: string, revision: number): Promise<boolean> {
    try {
      await this.db.write((t) => this.insertClaim(t, pageId, revision));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /**
   * Marks the page's revision `revision` as written from the live session, inside the
   * revision's own transaction `tx`: no process applies it to the document as a diff (it is
   * the document's text already), and the write and the mark commit together.
   */
  async claimWritten(tx: Tx, pageId: string, revision: number): Promise<void> {
    await this.insertClaim(tx, pageId, revision);
  }

  private insertClaim(tx: Tx, pageId: string, revision: number): Promise<unknown> {
    const id = claimId(pageId, revision);
    return insertRows(tx.sql, 'collab_updates', COLLAB_UPDATE_COLUMNS, [
      { id, pageId, data: EMPTY_UPDATE, authors: [], revision, createdAt: new Date() },
    ]);
  }

  /**
   * Replaces the rows `ids` by one snapshot (all or nothing), so a crash in between leaves the
   * rows or the snapshot, never neither; rows appended meanwhile stay.
   */
  async compact(
    pageId: string,
    ids: string[],
    snapshot: Uint8Array,
    authors: string[],
    revision: number,
    tx?: Tx,
  ): Promise<void> {
    await this.db.transaction(async (t) => {
      await this.append(pageId, snapshot, authors, revision, t);
      for (let at = 0; at < ids.length; at += 500) {
        const chunk = ids.slice(at, at + 500);
        await t.sql.run(
          `DELETE FROM collab_updates WHERE page_id = ? AND id IN (${chunk.map(() => '?').join(', ')})`,
          [pageId, ...chunk],
        );
      }
    }, tx);
  }
}
