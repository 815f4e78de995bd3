import { Injectable } from '@nestjs/common';
import { In, IsNull, MoreThan } from 'typeorm';
import { Database, Tx } from '../../common/database/database';
import type { CursorPosition } from '../../common/http/pagination';
import { AccessTokenEntity } from '../entities/access-token.entity';
import { AuthGenerationRepository } from './auth-generation.repository';

/** The one door to `access_tokens`. */
@Injectable()
export class TokensRepository {
  constructor(
    private readonly db: Database,
    private readonly generation: AuthGenerationRepository,
  ) {}

  /**
   * Inserts the token unless its owner already holds `cap` live (unexpired) tokens; answers
   * null then. The owner's row is locked first (MySQL; SQLite writes never interleave), so two
   * requests at once cannot both take the last place.
   */
  insertWithinCap(
    token: AccessTokenEntity,
    cap: number,
    now: Date,
  ): Promise<AccessTokenEntity | null> {
    return this.db.transaction(async (t) => {
      const sql = this.db.sql(t);
      await sql.all('SELECT id FROM users WHERE id = ?' + sql.dialect.forUpdate, [token.userId]);
      const userId = token.userId;
      const live = await t.manager.countBy(AccessTokenEntity, [
        { userId, expiresAt: IsNull() },
        { userId, expiresAt: MoreThan(now) },
      ]);
      if (live >= cap) return null;
      return t.manager.save(AccessTokenEntity, token);
    });
  }

  /** A user's tokens, newest first; `after` continues behind a listed token. */
  listOfUser(
    userId: string,
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<AccessTokenEntity[]> {
    const query = this.db
      .manager()
      .createQueryBuilder(AccessTokenEntity, 't')
      .where('t.user_id = :userId', { userId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(limit);
    if (after)
      query.andWhere('(t.created_at < :at OR (t.created_at = :at AND t.id < :id))', {
        at: after.at,
        id: after.id,
      });
    return query.getMany();
  }

  /** Every token of a user (to revoke them all). */
  allOfUser(userId: string, tx?: Tx): Promise<AccessTokenEntity[]> {
    return this.db.manager(tx).findBy(AccessTokenEntity, { userId });
  }

  findOfUser(id: string, userId: string, tx?: Tx): Promise<AccessTokenEntity | null> {
    return this.db.manager(tx).findOneBy(AccessTokenEntity, { id, userId });
  }

  findByHash(tokenHash: string, tx?: Tx): Promise<AccessTokenEntity | null> {
    return this.db.manager(tx).findOneBy(AccessTokenEntity, { tokenHash });
  }

  async touch(id: string, lastUsedAt: Date, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.update(AccessTokenEntity, { id }, { lastUsedAt }), tx);
  }

  async delete(id: string, tx?: Tx): Promise<void> {
    await this.db.write(async (t) => {
      await t.manager.delete(AccessTokenEntity, { id });
      await this.generation.bump(t);
    }, tx);
  }

  async deleteMany(ids: string[], tx?: Tx): Promise<void> {
    await this.db.write(async (t) => {
      await t.manager.delete(AccessTokenEntity, { id: In(ids) });
      await this.generation.bump(t);
    }, tx);
  }
}
