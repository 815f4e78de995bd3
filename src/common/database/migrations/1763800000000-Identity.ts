import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { Columns, columns, references } from '../migration-helpers';

function usersTable(c: Columns): Table {
  return new Table({
    name: 'users',
    columns: [
      c.id(),
      c.string('username', 64),
      c.string('display_name', 128),
      c.string('password_hash', 255),
      c.string('role', 16),
      c.bool('disabled'),
      c.datetime('created_at'),
      c.datetime('updated_at'),
    ],
    uniques: [{ name: 'uq_users_username', columnNames: ['username'] }],
  });
}

function accessGroupsTable(c: Columns): Table {
  return new Table({
    name: 'access_groups',
    columns: [c.id(), c.string('name', 64), c.datetime('created_at')],
    uniques: [{ name: 'uq_access_groups_name', columnNames: ['name'] }],
  });
}

function userGroupMembersTable(c: Columns): Table {
  return new Table({
    name: 'user_group_members',
    columns: [
      { ...c.uuid('user_id'), isPrimary: true },
      { ...c.uuid('group_id'), isPrimary: true },
    ],
    indices: [{ name: 'idx_user_group_members_group', columnNames: ['group_id'] }],
    foreignKeys: [references('user_id', 'users'), references('group_id', 'access_groups')],
  });
}

function sessionsTable(c: Columns): Table {
  return new Table({
    name: 'sessions',
    columns: [
      { ...c.string('id', 64), isPrimary: true },
      c.uuid('user_id'),
      c.datetime('created_at'),
      c.datetime('last_seen_at'),
      c.datetime('expires_at'),
      c.string('ip', 64, true),
      c.string('user_agent', 255, true),
    ],
    indices: [{ name: 'idx_sessions_user', columnNames: ['user_id'] }],
    foreignKeys: [references('user_id', 'users')],
  });
}

function accessTokensTable(c: Columns): Table {
  return new Table({
    name: 'access_tokens',
    columns: [
      c.id(),
      c.uuid('user_id'),
      c.string('name', 100),
      c.string('token_hash', 64),
      c.string('prefix', 16),
      c.string('scope', 16),
      c.datetime('expires_at', true),
      c.datetime('last_used_at', true),
      c.datetime('created_at'),
    ],
    uniques: [{ name: 'uq_access_tokens_hash', columnNames: ['token_hash'] }],
    indices: [{ name: 'idx_access_tokens_user', columnNames: ['user_id'] }],
    foreignKeys: [references('user_id', 'users')],
  });
}

function loginThrottleTable(c: Columns): Table {
  return new Table({
    name: 'login_throttle',
    columns: [
      { ...c.string('key', 200), isPrimary: true },
      c.int('failures'),
      c.datetime('window_start'),
    ],
  });
}

export class Identity1763800000000 implements MigrationInterface {
  name = 'Identity1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const tables = [
      usersTable(c),
      accessGroupsTable(c),
      userGroupMembersTable(c),
      sessionsTable(c),
      accessTokensTable(c),
      loginThrottleTable(c),
    ];
    for (const table of tables) await queryRunner.createTable(table);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'login_throttle',
      'access_tokens',
      'sessions',
      'user_group_members',
      'access_groups',
      'users',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
