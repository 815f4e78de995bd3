import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';
import { UserEntity } from '../entities/user.entity';
import { AuthGenerationRepository } from './auth-generation.repository';

/** The one door to `users` and their group memberships (`user_group_members`). */
@Injectable()
export class UsersRepository {
  constructor(
    private readonly db: Database,
    private readonly generation: AuthGenerationRepository,
  ) {}

  private users(tx?: Tx) {
    return this.db.manager(tx).getRepository(UserEntity);
  }

  /** An active user by username (stored lowercase), with groups. */
  findActiveByUsername(username: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOne({
      where: { username: username.toLowerCase(), disabled: false },
      relations: { groups: true },
    });
  }

  findActiveById(id: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOne({ where: { id, disabled: false }, relations: { groups: true } });
  }

  /** Any user, active or not, with groups. */
  findById(id: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOne({ where: { id }, relations: { groups: true } });
  }

  findByUsername(username: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOneBy({ username: username.toLowerCase() });
  }

  usernameTaken(username: string, tx?: Tx): Promise<boolean> {
    return this.users(tx).existsBy({ username });
  }

  /** Users by username after `afterUsername`, with groups. */
  listByUsername(afterUsername: string | undefined, limit: number): Promise<UserEntity[]> {
    const query = this.users()
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.groups', 'g')
      .orderBy('u.username', 'ASC')
      .take(limit);
    if (afterUsername !== undefined) query.where('u.username > :after', { after: afterUsername });
    return query.getMany();
  }

  /** Inserts or updates the user with its group memberships. */
  save(user: UserEntity, tx?: Tx): Promise<UserEntity> {
    return this.db.write(async (t) => {
      const saved = await t.manager.save(UserEntity, user);
      await this.generation.bump(t);
      return saved;
    }, tx);
  }

  /**
   * Active administrators. `forUpdate` inside a transaction: the rows stay locked until it ends
   * (MySQL; SQLite transactions never interleave), so two admins demoting each other cannot
   * both win.
   */
  async countActiveAdmins(options: { forUpdate?: boolean } = {}, tx?: Tx): Promise<number> {
    const sql = this.db.sql(tx);
    const [row] = await sql.all<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM users WHERE role = ? AND disabled = ?` +
        (options.forUpdate ? sql.dialect.forUpdate : ''),
      ['admin', false],
    );
    return Number(row?.n ?? 0);
  }
}
