import { Logger } from '@nestjs/common';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { assignUsernameKeys, USERNAME_KEY_LENGTH } from '../../text/username-keys';
import { columns } from '../migration-helpers';

const BINARY = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
const UNICODE_CI = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci';

/**
 * `users.username_key`: the canonical username (canonicalUsername) that sign-in, lookups and
 * the login throttle compare, unique and binary. Before it, MySQL/MariaDB compared usernames
 * and throttle keys in an accent-, width- and case-insensitive collation while kb compared
 * throttle keys exactly, so `réader2` signed in to a locked `reader2` uncounted. Existing
 * accounts get their keys here (clashes: assignUsernameKeys), and the login throttle's and the
 * rate limiter's keys become binary too.
 */
export class UsernameKey1763802310000 implements MigrationInterface {
  name = 'UsernameKey1763802310000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const { mysql } = columns(queryRunner);
    const type = `VARCHAR(${USERNAME_KEY_LENGTH})`;
    await queryRunner.query(
      `ALTER TABLE users ADD COLUMN username_key ${type}${mysql ? ` ${BINARY}` : ''} NULL`,
    );
    const rows = (await queryRunner.query('SELECT id, username, created_at FROM users')) as {
      id: string;
      username: string;
      created_at: string | Date;
    }[];
    const keys = assignUsernameKeys(
      rows.map((r) => ({ id: r.id, username: r.username, createdAt: new Date(r.created_at) })),
    );
    const logger = new Logger('Migrations');
    for (const row of rows) {
      const key = keys.get(row.id)!;
      if (key.startsWith('#')) {
        logger.warn({
          msg: `The username "${row.username}" clashes with another account's canonical form (or is too long); it can no longer sign in by name`,
          userId: row.id,
        });
      }
      await queryRunner.query('UPDATE users SET username_key = ? WHERE id = ?', [key, row.id]);
    }
    if (mysql) {
      await queryRunner.query(`ALTER TABLE users MODIFY username_key ${type} ${BINARY} NOT NULL`);
      // Binary keys: a counter is hit only by the exact (canonical) key kb computed.
      await queryRunner.query(
        `ALTER TABLE login_throttle MODIFY \`key\` VARCHAR(200) ${BINARY} NOT NULL`,
      );
      await queryRunner.query(
        `ALTER TABLE rate_limit_counters MODIFY counter_key VARCHAR(200) ${BINARY} NOT NULL`,
      );
    }
    // SQLite compares binary already; its column stays nullable (adding NOT NULL means
    // rebuilding the table) and kb always writes it.
    await queryRunner.query('CREATE UNIQUE INDEX uq_users_username_key ON users (username_key)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const { mysql } = columns(queryRunner);
    if (mysql) {
      await queryRunner.query('DROP INDEX uq_users_username_key ON users');
      await queryRunner.query(
        `ALTER TABLE login_throttle MODIFY \`key\` VARCHAR(200) ${UNICODE_CI} NOT NULL`,
      );
      await queryRunner.query(
        `ALTER TABLE rate_limit_counters MODIFY counter_key VARCHAR(200) ${UNICODE_CI} NOT NULL`,
      );
    } else {
      await queryRunner.query('DROP INDEX uq_users_username_key');
    }
    await queryRunner.query('ALTER TABLE users DROP COLUMN username_key');
  }
}
