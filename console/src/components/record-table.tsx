import { Fragment, type Key, type ReactNode } from 'react';
import { EmptyState } from './empty-state';

interface RecordTableProps<T> {
  /** The table's accessible name; read by screen readers, not shown. */
  caption: ReactNode;
  /** The column headers, in order; the row header is whichever cell a row marks `scope="row"`. */
  columns: readonly string[];
  /** A last column of buttons, headed "Actions" for screen readers only. */
  actions?: boolean;
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** One `<tr>` per record. */
  renderRow: (row: T, index: number) => ReactNode;
  /** Shown instead of the table when there are no rows; without it the table stays. */
  empty?: ReactNode;
  /** On phones, each row becomes a card whose cells show their `data-label` (default on). */
  stack?: boolean;
  /** Wraps the table in a horizontally scrolling box (default on). */
  scroll?: boolean;
  className?: string;
}

/**
 * The console's list of records as a table: a hidden caption naming it, a header row of
 * columns (and the optional Actions column), and one row per record, or the empty state.
 */
export function RecordTable<T>({
  caption,
  columns,
  actions = false,
  rows,
  rowKey,
  renderRow,
  empty,
  stack = true,
  scroll = true,
  className,
}: RecordTableProps<T>) {
  if (empty !== undefined && rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  const classes = ['table', stack && 'table--stack', className].filter(Boolean).join(' ');
  const table = (
    <table className={classes}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <Fragment key={rowKey(row)}>{renderRow(row, index)}</Fragment>
        ))}
      </tbody>
    </table>
  );
  return scroll ? <div className="table-scroll">{table}</div> : table;
}
