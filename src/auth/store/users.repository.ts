import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';
import { canonicalUsername } from '../../common/text/username';
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

  /** An active user by username (in any form with the same canonical form), with groups. */
  findActiveByUsername(username: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOne({
      where: { usernameKey: usernameKey(username), disabled: false },
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

  /** Any user by username (in any form with the same canonical form). */
  findByUsername(username: string, tx?: Tx): Promise<UserEntity | null> {
    return this.users(tx).findOneBy({ usernameKey: usernameKey(username) });
  }

  /** Every user (active or not) whose email is `email`, compared case-insensitively, with groups. */
  findByEmail(email: string, tx?: Tx): Promise<UserEntity[]> {
    return this.users(tx)
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.groups', 'g')
      .where('LOWER(u.email) = :email', { email: email.trim().toLowerCase() })
      .take(10)
      .getMany();
  }

  /** Active users whose email is `email` (any case): a password reset's accounts. */
  listActiveByEmail(email: string): Promise<UserEntity[]> {
    return this.users()
      .createQueryBuilder('u')
      .where('LOWER(u.email) = :email AND u.disabled = :disabled', {
        email: email.toLowerCase(),
        disabled: false,
      })
      .orderBy('u.username', 'ASC')
      .take(10)
      .getMany();
  }

  /** Whether an account holds the canonical form of `username`. */
  usernameTaken(username: string, tx?: Tx): Promise<boolean> {
    return this.users(tx).existsBy({ usernameKey: usernameKey(username) });
  }

  /**
   * Users by username after `afterUsername`, with groups; `filter` keeps those whose username,
   * display name or email contains it (case-insensitive).
   */
  listByUsername(
    afterUsername: string | undefined,
    limit: number,
    filter: string | undefined,
  ): Promise<UserEntity[]> {
    const query = this.users()
      .createQueryBuilder('u')
      .leftJoinAndSelect('u.groups', 'g')
      .orderBy('u.username', 'ASC')
      .take(limit);
    if (afterUsername !== undefined) query.where('u.username > :after', { after: afterUsername });
    if (filter) {
      // `!` escapes LIKE's wildcards: a backslash means something else in MySQL's literals.
      const like = `%${filter.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
      const matches = (column: string) => `LOWER(${column}) LIKE :like ESCAPE '!'`;
      query.andWhere(
        `(${matches('u.username')} OR ${matches('u.display_name')} OR ${matches("COALESCE(u.email, '')")})`,
        { like },
      );
    }
    return query.getMany();
  }

  /** Notes a successful sign-in (not a credentials change: no generation bump). */
  async recordSignIn(id: string, at: Date, tx?: Tx): Promise<void> {
    await this.db.write((t) => t.manager.update(UserEntity, { id }, { lastLoginAt: at }), tx);
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

/**
 * The key a username is looked up by. Account keys are canonical names, or `#<id>` for accounts
 * that lost a clash in the migration: a `#` in what a caller typed must never reach those.
 */
function usernameKey(username: string): string {
  const key = canonicalUsername(username);
  return key.includes('#') ? '' : key;
}
