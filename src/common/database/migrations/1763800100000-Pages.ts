import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
} from 'typeorm';
import { columns } from '../migration-helpers';

export class Pages1763800100000 implements MigrationInterface {
  name = 'Pages1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    // Slugs and tags compare byte-exact: MySQL's default collation would fold case and accents.
    const exact = (column: TableColumnOptions): TableColumnOptions => ({
      ...column,
      collation: c.mysql ? 'utf8mb4_bin' : undefined,
    });
    const page = (name = 'page_id', primary = true) => ({
      column: { ...c.uuid(name), isPrimary: primary },
      fk: new TableForeignKey({
        columnNames: [name],
        referencedTableName: 'pages',
        referencedColumnNames: ['id'],
        onDelete: 'CASCADE',
      }),
    });

    await queryRunner.createTable(
      new Table({
        name: 'pages',
        columns: [
          c.id(),
          exact(c.string('slug', 255)),
          exact(c.string('live_slug', 255, true)),
          c.string('title', 255),
          c.text('content'),
          c.text('html', true),
          c.int('html_site_version', false, 0),
          c.string('icon', 64, true),
          c.string('language', 35, true),
          c.json('tags'),
          c.json('group_names'),
          c.string('lifecycle', 16),
          c.uuid('owner_id', true),
          c.int('review_interval_days', true),
          c.datetime('next_review_at', true),
          exact(c.string('deprecated_target', 255, true)),
          c.json('properties'),
          c.json('variables'),
          c.bool('verified'),
          c.int('revision'),
          c.datetime('created_at'),
          c.uuid('created_by', true),
          c.datetime('updated_at'),
          c.uuid('updated_by', true),
          c.datetime('binned_at', true),
          c.uuid('binned_by', true),
        ],
        indices: [
          { name: 'uq_pages_live_slug', columnNames: ['live_slug'], isUnique: true },
          { name: 'idx_pages_updated', columnNames: ['updated_at', 'id'] },
          { name: 'idx_pages_next_review', columnNames: ['next_review_at'] },
          { name: 'idx_pages_binned', columnNames: ['binned_at'] },
          { name: 'idx_pages_owner', columnNames: ['owner_id'] },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['owner_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
      }),
    );

    const revisionPage = page('page_id', false);
    await queryRunner.createTable(
      new Table({
        name: 'page_revisions',
        columns: [
          c.id(),
          revisionPage.column,
          c.int('revision'),
          exact(c.string('slug', 255)),
          c.string('title', 255),
          c.text('content'),
          c.json('metadata'),
          c.string('action', 16),
          c.uuid('author_id', true),
          c.datetime('created_at'),
        ],
        uniques: [
          { name: 'uq_page_revisions_page_revision', columnNames: ['page_id', 'revision'] },
        ],
        foreignKeys: [revisionPage.fk],
      }),
    );

    const tagPage = page();
    await queryRunner.createTable(
      new Table({
        name: 'page_tags',
        columns: [tagPage.column, { ...exact(c.string('tag', 64)), isPrimary: true }],
        indices: [{ name: 'idx_page_tags_tag', columnNames: ['tag'] }],
        foreignKeys: [tagPage.fk],
      }),
    );

    const groupPage = page();
    await queryRunner.createTable(
      new Table({
        name: 'page_groups',
        columns: [groupPage.column, { ...c.uuid('group_id'), isPrimary: true }],
        indices: [{ name: 'idx_page_groups_group', columnNames: ['group_id'] }],
        foreignKeys: [
          groupPage.fk,
          new TableForeignKey({
            columnNames: ['group_id'],
            referencedTableName: 'access_groups',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );

    const linkPage = page('source_page_id');
    await queryRunner.createTable(
      new Table({
        name: 'page_links',
        columns: [linkPage.column, { ...exact(c.string('target_slug', 255)), isPrimary: true }],
        indices: [{ name: 'idx_page_links_target', columnNames: ['target_slug'] }],
        foreignKeys: [linkPage.fk],
      }),
    );

    const mediaPage = page();
    await queryRunner.createTable(
      new Table({
        name: 'page_media_refs',
        columns: [mediaPage.column, { ...c.uuid('media_id'), isPrimary: true }],
        indices: [{ name: 'idx_page_media_refs_media', columnNames: ['media_id'] }],
        foreignKeys: [mediaPage.fk],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'site_variables',
        columns: [{ ...exact(c.string('name', 64)), isPrimary: true }, c.text('value')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'site_variable_state',
        columns: [{ ...c.int('id'), isPrimary: true }, c.int('version')],
      }),
    );
    await queryRunner.query(
      c.mysql
        ? 'INSERT INTO `site_variable_state` (`id`, `version`) VALUES (1, 1)'
        : 'INSERT INTO "site_variable_state" ("id", "version") VALUES (1, 1)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'site_variable_state',
      'site_variables',
      'page_media_refs',
      'page_links',
      'page_groups',
      'page_tags',
      'page_revisions',
      'pages',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}
