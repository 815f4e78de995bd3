import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Database, Tx } from '../common/database/database';
import type { CursorPosition } from '../common/http/pagination';
import { DraftEntity } from './entities/draft.entity';

/** The one door to `drafts`; every method is scoped to the owner. */
@Injectable()
export class DraftsRepository {
  constructor(private readonly db: Database) {}

  find(userId: string, key: string, tx?: Tx): Promise<DraftEntity | null> {
    return this.db.manager(tx).findOneBy(DraftEntity, { userId, key });
  }

  /** Inserts a new draft; a unique violation when the (user, key) exists already. */
  async insert(draft: DraftEntity, tx?: Tx): Promise<void> {
    await this.db.write(
      (t) => t.manager.insert(DraftEntity, draft as QueryDeepPartialEntity<DraftEntity>),
      tx,
    );
  }

  async update(
    id: string,
    changes: Pick<DraftEntity, 'document' | 'title' | 'size' | 'updatedAt'>,
    tx?: Tx,
  ): Promise<void> {
    await this.db.write(
      (t) => t.manager.update(DraftEntity, { id }, changes as QueryDeepPartialEntity<DraftEntity>),
      tx,
    );
  }

  /** Deletes the owner's draft; false when there was none. */
  async delete(userId: string, key: string, tx?: Tx): Promise<boolean> {
    const result = await this.db.write((t) => t.manager.delete(DraftEntity, { userId, key }), tx);
    return Boolean(result.affected);
  }

  /** The owner's drafts without their documents, most recently saved first; `after` continues. */
  listOfUser(
    userId: string,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<DraftEntity[]> {
    const query = this.db
      .manager()
      .createQueryBuilder(DraftEntity, 'd')
      .select(['d.id', 'd.key', 'd.title', 'd.size', 'd.createdAt', 'd.updatedAt'])
      .where('d.user_id = :userId', { userId })
      .orderBy('d.updated_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .take(limit);
    if (after)
      query.andWhere('(d.updated_at < :at OR (d.updated_at = :at AND d.id < :id))', {
        at: after.at,
        id: after.id,
      });
    return query.getMany();
  }
}
