import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columns } from '../migration-helpers';

/**
 * An account's email address and last sign-in (the users screen and the Account screen show
 * them), and draft keys wide enough for every slug the page API accepts: `page:` and up to 255
 * letters of any script. MySQL/MariaDB kept keys as ASCII; they become binary UTF-8 (still
 * case-sensitive, as on SQLite). SQLite does not enforce a VARCHAR's length or character set.
 */
export class AccountsAndDraftKeys1763838000400 implements MigrationInterface {
  name = 'AccountsAndDraftKeys1763838000400';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    await queryRunner.addColumns('users', [
      new TableColumn(c.string('email', 254, true)),
      new TableColumn(c.datetime('last_login_at', true)),
    ]);
    if (c.mysql) {
      await queryRunner.query(
        'ALTER TABLE drafts MODIFY draft_key VARCHAR(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL',
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    if (c.mysql) {
      await queryRunner.query("DELETE FROM drafts WHERE draft_key NOT REGEXP '^[ -~]*$'");
      await queryRunner.query(
        'ALTER TABLE drafts MODIFY draft_key VARCHAR(200) CHARACTER SET ascii COLLATE ascii_bin NOT NULL',
      );
    }
    await queryRunner.dropColumn('users', 'last_login_at');
    await queryRunner.dropColumn('users', 'email');
  }
}
