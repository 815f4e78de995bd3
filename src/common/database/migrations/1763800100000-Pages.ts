import {
  MigrationInterface,
  QueryRunner,
  Table,
  TableColumnOptions,
  TableForeignKey,
} from 'typeorm';
import { Columns, columns, references } from '../migration-helpers';

/** Slugs and tags compare byte-exact: MySQL's default collation would fold case and accents. */
function exact(c: Columns, column: TableColumnOptions): TableColumnOptions {
  return { ...column, collation: c.mysql ? 'utf8mb4_bin' : undefined };
}

/** A column naming a page (part of the primary key unless `primary` is false) and its key. */
function pageRef(c: Columns, name = 'page_id', primary = true) {
  return {
    column: { ...c.uuid(name), isPrimary: primary },
    fk: references(name, 'pages'),
  };
}

function pagesTable(c: Columns): Table {
  return new Table({
    name: 'pages',
    columns: [
      c.id(),
      exact(c, c.string('slug', 255)),
      exact(c, c.string('live_slug', 255, true)),
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
      exact(c, c.string('deprecated_target', 255, true)),
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
  });
}

function revisionsTable(c: Columns): Table {
  const page = pageRef(c, 'page_id', false);
  return new Table({
    name: 'page_revisions',
    columns: [
      c.id(),
      page.column,
      c.int('revision'),
      exact(c, c.string('slug', 255)),
      c.string('title', 255),
      c.text('content'),
      c.json('metadata'),
      c.string('action', 16),
      c.uuid('author_id', true),
      c.datetime('created_at'),
    ],
    uniques: [{ name: 'uq_page_revisions_page_revision', columnNames: ['page_id', 'revision'] }],
    foreignKeys: [page.fk],
  });
}

function tagsTable(c: Columns): Table {
  const page = pageRef(c);
  return new Table({
    name: 'page_tags',
    columns: [page.column, { ...exact(c, c.string('tag', 64)), isPrimary: true }],
    indices: [{ name: 'idx_page_tags_tag', columnNames: ['tag'] }],
    foreignKeys: [page.fk],
  });
}

function groupsTable(c: Columns): Table {
  const page = pageRef(c);
  return new Table({
    name: 'page_groups',
    columns: [page.column, { ...c.uuid('group_id'), isPrimary: true }],
    indices: [{ name: 'idx_page_groups_group', columnNames: ['group_id'] }],
    foreignKeys: [page.fk, references('group_id', 'access_groups')],
  });
}

function linksTable(c: Columns): Table {
  const page = pageRef(c, 'source_page_id');
  return new Table({
    name: 'page_links',
    columns: [page.column, { ...exact(c, c.string('target_slug', 255)), isPrimary: true }],
    indices: [{ name: 'idx_page_links_target', columnNames: ['target_slug'] }],
    foreignKeys: [page.fk],
  });
}

function mediaRefsTable(c: Columns): Table {
  const page = pageRef(c);
  return new Table({
    name: 'page_media_refs',
    columns: [page.column, { ...c.uuid('media_id'), isPrimary: true }],
    indices: [{ name: 'idx_page_media_refs_media', columnNames: ['media_id'] }],
    foreignKeys: [page.fk],
  });
}

function siteVariableTables(c: Columns): Table[] {
  return [
    new Table({
      name: 'site_variables',
      columns: [{ ...exact(c, c.string('name', 64)), isPrimary: true }, c.text('value')],
    }),
    new Table({
      name: 'site_variable_state',
      columns: [{ ...c.int('id'), isPrimary: true }, c.int('version')],
    }),
  ];
}

export class Pages1763800100000 implements MigrationInterface {
  name = 'Pages1763800100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columns(queryRunner);
    const tables = [
      pagesTable(c),
      revisionsTable(c),
      tagsTable(c),
      groupsTable(c),
      linksTable(c),
      mediaRefsTable(c),
      ...siteVariableTables(c),
    ];
    for (const table of tables) await queryRunner.createTable(table);
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
