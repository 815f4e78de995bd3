import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { userSql } from '../auth/public-sql';
import { Database, Tx } from '../common/database/database';
import type { CursorPosition } from '../common/http/pagination';
import { namedCondition, SqlCondition } from '../common/database/sql';
import { MediaEntity, MediaKind } from './entities/media.entity';

/**
 * The one door to `media`. Items are read with their uploader's names (auth's SQL fragments,
 * the same statement); writes without a transaction take their turn at the writer.
 */
@Injectable()
export class MediaRepository {
  constructor(private readonly db: Database) {}

  private select(tx?: Tx): SelectQueryBuilder<MediaEntity> {
    return this.db
      .manager(tx)
      .createQueryBuilder(MediaEntity, 'm')
      .addSelect(userSql.username('m.uploaded_by'), 'uploader_username')
      .addSelect(userSql.displayName('m.uploaded_by'), 'uploader_display_name');
  }

  private async withUploaders(query: SelectQueryBuilder<MediaEntity>): Promise<MediaEntity[]> {
    const { entities, raw } = await query.getRawAndEntities<Record<string, unknown>>();
    const byId = new Map(raw.map((row) => [String(row.m_id), row]));
    for (const media of entities) {
      media.uploader = userSql.readRef(media.uploadedById, byId.get(media.id) ?? {}, 'uploader');
    }
    return entities;
  }

  /**
   * An item with its uploader; only of `kind` when given, only when it meets `visible` (a
   * condition over `m`, MediaAccess.visibleSql) when given.
   */
  async findById(
    id: string,
    { kind, visible, tx }: { kind?: MediaKind; visible?: SqlCondition; tx?: Tx } = {},
  ): Promise<MediaEntity | null> {
    const query = this.select(tx).where('m.id = :id', { id });
    if (kind) query.andWhere('m.kind = :kind', { kind });
    if (visible) andVisible(query, visible);
    return (await this.withUploaders(query))[0] ?? null;
  }

  /** The items among `ids` (at most a few hundred) meeting `visible`, with uploaders, in no order. */
  async findByIds(ids: string[], visible?: SqlCondition): Promise<MediaEntity[]> {
    if (ids.length === 0) return [];
    const query = this.select().where('m.id IN (:...ids)', { ids });
    if (visible) andVisible(query, visible);
    return this.withUploaders(query);
  }

  /**
   * Items of a kind meeting `visible` (MediaAccess.visibleSql over `m`), newest first, with
   * uploaders; `after` continues behind a listed item.
   */
  list(
    kind: MediaKind,
    visible: SqlCondition,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<MediaEntity[]> {
    const query = this.select()
      .where('m.kind = :kind', { kind })
      .orderBy('m.createdAt', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .limit(limit);
    if (after)
      query.andWhere('(m.created_at < :at OR (m.created_at = :at AND m.id < :id))', {
        at: after.at,
        id: after.id,
      });
    andVisible(query, visible);
    return this.withUploaders(query);
  }

  /** The row alone (no uploader), e.g. to open its content. */
  findRow(id: string, tx?: Tx): Promise<MediaEntity | null> {
    return this.db.manager(tx).findOneBy(MediaEntity, { id });
  }

  /** Which of `sha256s` at least one row (committed, or in `tx`) references. */
  async hashesInUse(sha256s: string[], tx?: Tx): Promise<Set<string>> {
    if (sha256s.length === 0) return new Set();
    const rows: { sha256: string }[] = await this.db
      .manager(tx)
      .createQueryBuilder(MediaEntity, 'm')
      .select('DISTINCT m.sha256', 'sha256')
      .where('m.sha256 IN (:...sha256s)', { sha256s })
      .getRawMany();
    return new Set(rows.map((row) => row.sha256));
  }

  /** Distinct content hashes in order, after `after` (exclusive): every stored content, paged. */
  async listHashes(after: string, limit: number): Promise<string[]> {
    const rows: { sha256: string }[] = await this.db
      .manager()
      .createQueryBuilder(MediaEntity, 'm')
      .select('DISTINCT m.sha256', 'sha256')
      .where('m.sha256 > :after', { after })
      .orderBy('m.sha256')
      .limit(limit)
      .getRawMany();
    return rows.map((row) => row.sha256);
  }

  /**
   * Runs `work` in a transaction that holds back every insert of a row with `sha256` until it
   * ends (on MySQL/MariaDB the locking read takes the index gap; on SQLite the transaction holds
   * the one writer, across processes and workers). `work` gets whether a committed row still
   * references the content. The media store's release deletes the bytes in there: an upload
   * inserts its row and then checks its bytes are there, so it either made the release keep them
   * or finds them gone and stores them again.
   */
  withHashLocked<T>(sha256: string, work: (inUse: boolean) => Promise<T>): Promise<T> {
    return this.db.transaction(async ({ sql }) => {
      const rows = await sql.all<{ id: string }>(
        'SELECT id FROM media WHERE sha256 = ?' + sql.dialect.forUpdate,
        [sha256],
      );
      return work(rows.length > 0);
    });
  }

  /**
   * Attachments meeting `condition` (over `m`: the search index's "no text yet"), oldest
   * first: what the text indexer works through.
   */
  async attachmentsWhere(
    condition: SqlCondition,
    limit: number,
  ): Promise<{ id: string; filename: string; mimeType: string; size: number }[]> {
    const rows = await this.db
      .sql()
      .all<{ id: string; filename: string; mime_type: string; size: number | string }>(
        'SELECT m.id, m.filename, m.mime_type, m.size FROM media m ' +
          `WHERE m.kind = 'attachment' AND (${condition.sql}) ORDER BY m.created_at, m.id LIMIT ?`,
        [...condition.params, limit],
      );
    return rows.map((r) => ({
      id: r.id,
      filename: r.filename,
      mimeType: r.mime_type,
      size: Number(r.size),
    }));
  }

  async insert(media: MediaEntity, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.insert(MediaEntity, media), tx);
  }

  async delete(id: string, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.delete(MediaEntity, { id }), tx);
  }
}

function andVisible(query: SelectQueryBuilder<MediaEntity>, visible: SqlCondition): void {
  const named = namedCondition(visible, 'visible');
  query.andWhere(`(${named.sql})`, named.params);
}
