import { Injectable } from '@nestjs/common';
import type { SelectQueryBuilder } from 'typeorm';
import { userSql } from '../auth/store/user-sql';
import { Database, Tx } from '../common/database/database';
import type { CursorPosition } from '../common/http/pagination';
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

  /** An item with its uploader; only of `kind` when given. */
  async findById(id: string, kind?: MediaKind, tx?: Tx): Promise<MediaEntity | null> {
    const query = this.select(tx).where('m.id = :id', { id });
    if (kind) query.andWhere('m.kind = :kind', { kind });
    return (await this.withUploaders(query))[0] ?? null;
  }

  /** Items of a kind, newest first, with uploaders; `after` continues behind a listed item. */
  list(kind: MediaKind, after: CursorPosition | undefined, limit: number): Promise<MediaEntity[]> {
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
    return this.withUploaders(query);
  }

  /** The row alone (no uploader), e.g. to open its content. */
  findRow(id: string, tx?: Tx): Promise<MediaEntity | null> {
    return this.db.manager(tx).findOneBy(MediaEntity, { id });
  }

  countWithHash(sha256: string, tx?: Tx): Promise<number> {
    return this.db.manager(tx).countBy(MediaEntity, { sha256 });
  }

  async insert(media: MediaEntity, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.insert(MediaEntity, media), tx);
  }

  async delete(id: string, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.delete(MediaEntity, { id }), tx);
  }
}
