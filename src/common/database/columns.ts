import { Column, ColumnOptions } from 'typeorm';

/** Millisecond timestamps on both databases (MySQL's DATETIME(3); SQLite stores text). */
export function DateTimeColumn(
  options: Pick<ColumnOptions, 'nullable' | 'name'> = {},
): PropertyDecorator {
  return Column({
    type: 'datetime',
    precision: 3,
    nullable: options.nullable ?? false,
    name: options.name,
  });
}

/** JSON kept as text: migrations use LONGTEXT on MySQL. */
export function JsonColumn(
  options: Pick<ColumnOptions, 'nullable' | 'name'> = {},
): PropertyDecorator {
  return Column({ type: 'simple-json', nullable: options.nullable ?? false, name: options.name });
}

/** Long text (page bodies): TEXT on SQLite, LONGTEXT on MySQL (set in the migrations). */
export function LongTextColumn(
  options: Pick<ColumnOptions, 'nullable' | 'name'> = {},
): PropertyDecorator {
  return Column({ type: 'text', nullable: options.nullable ?? false, name: options.name });
}
