import { QueryRunner, TableColumnOptions, TableForeignKey } from 'typeorm';
import { dialectOf } from './dialect';

/**
 * Column builders for migrations written with TypeORM's Table API, so one migration file
 * produces the right DDL on SQLite and on MySQL/MariaDB.
 */
export function columns(queryRunner: QueryRunner) {
  const mysql = dialectOf(queryRunner.connection.options.type).name === 'mysql';
  return {
    mysql,
    id: (name = 'id'): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
      isPrimary: true,
    }),
    uuid: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
      isNullable: nullable,
    }),
    string: (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
    }),
    int: (name: string, nullable = false, defaultValue?: number): TableColumnOptions => ({
      name,
      type: 'int',
      isNullable: nullable,
      default: defaultValue,
    }),
    bigint: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'bigint',
      isNullable: nullable,
    }),
    bool: (name: string, defaultValue = false): TableColumnOptions => ({
      name,
      type: 'boolean',
      isNullable: false,
      default: defaultValue ? 1 : 0,
    }),
    datetime: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: 'datetime',
      precision: mysql ? 3 : undefined,
      isNullable: nullable,
    }),
    /** Unbounded text: LONGTEXT on MySQL (TEXT there stops at 64 KiB). */
    text: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: mysql ? 'longtext' : 'text',
      isNullable: nullable,
    }),
    json: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: mysql ? 'longtext' : 'text',
      isNullable: nullable,
    }),
  };
}

/** The column builders of one migration's database. */
export type Columns = ReturnType<typeof columns>;

/** A foreign key from `column` to `table`'s `id`, deleting the row with its referent. */
export function references(column: string, table: string): TableForeignKey {
  return new TableForeignKey({
    columnNames: [column],
    referencedTableName: table,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });
}
