import { Injectable } from '@nestjs/common';
import { LessThan, Not } from 'typeorm';
import type { CursorPosition } from '../../common/http/pagination';
import { Database, Tx } from '../../common/database/database';
import { SessionEntity } from '../entities/session.entity';
import { AuthGenerationRepository } from './auth-generation.repository';

/** The one door to `sessions`. */
@Injectable()
export class SessionsRepository {
  constructor(
    private readonly db: Database,
    private readonly generation: AuthGenerationRepository,
  ) {}

  insert(session: SessionEntity, tx?: Tx): Promise<SessionEntity> {
    return this.db.write((t) => t.manager.save(SessionEntity, session), tx);
  }

  findById(id: string, tx?: Tx): Promise<SessionEntity | null> {
    return this.db.manager(tx).findOneBy(SessionEntity, { id });
  }

  async touch(id: string, lastSeenAt: Date, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.update(SessionEntity, { id }, { lastSeenAt }), tx);
  }

  async delete(id: string, tx?: Tx): Promise<void> {
    await this.db.write(async (t) => {
      await t.manager.delete(SessionEntity, { id });
      await this.generation.bump(t);
    }, tx);
  }

  /**
   * A user's sessions seen after `seenSince` and not past `now`'s absolute end, most recently
   * seen first; `after` continues a page.
   */
  listOfUser(
    userId: string,
    live: { now: Date; seenSince: Date },
    after: CursorPosition | undefined,
    limit: number,
  ): Promise<SessionEntity[]> {
    const query = this.db
      .manager()
      .createQueryBuilder(SessionEntity, 's')
      .where('s.user_id = :userId', { userId })
      .andWhere('s.expires_at > :now', { now: live.now })
      .andWhere('s.last_seen_at > :seenSince', { seenSince: live.seenSince })
      .orderBy('s.last_seen_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .take(limit);
    if (after) {
      query.andWhere('(s.last_seen_at < :at OR (s.last_seen_at = :at AND s.id < :id))', {
        at: after.at,
        id: after.id,
      });
    }
    return query.getMany();
  }

  /** Ends one session of a user; false when the user has none with that id. */
  async deleteOfUserById(userId: string, id: string, tx?: Tx): Promise<boolean> {
    const result = await this.db.write(async (t) => {
      const deleted = await t.manager.delete(SessionEntity, { userId, id });
      if (deleted.affected) await this.generation.bump(t);
      return deleted;
    }, tx);
    return Boolean(result.affected);
  }

  /**
   * Ends every session of a user (disabled, a new password, an administrator's order), or all
   * but `keep` (the one asking); answers how many ended.
   */
  async deleteOfUser(userId: string, tx?: Tx, keep?: string): Promise<number> {
    const result = await this.db.write(async (t) => {
      const deleted = await t.manager.delete(
        SessionEntity,
        keep ? { userId, id: Not(keep) } : { userId },
      );
      await this.generation.bump(t);
      return deleted;
    }, tx);
    return result.affected ?? 0;
  }

  /** Drops sessions past their absolute end or idle since `idleSince`. */
  async deleteExpired(now: Date, idleSince: Date, tx?: Tx): Promise<void> {
    await this.db.write(async (t) => {
      await t.manager.delete(SessionEntity, { expiresAt: LessThan(now) });
      await t.manager.delete(SessionEntity, { lastSeenAt: LessThan(idleSince) });
    }, tx);
  }
}
