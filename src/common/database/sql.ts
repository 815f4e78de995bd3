import type { Dialect } from './dialect';

export type Row = Record<string, unknown>;

export interface RunResult {
  /** Rows the statement changed (inserted, updated, deleted). */
  changes: number;
}

/**
 * The small interface the store functions are written against: plain SQL with `?`
 * placeholders on one connection, inside a transaction or not. On the main thread it is
 * better-sqlite3 (cached prepared statements) or the MySQL pool; in a worker thread it can be
 * a read-only better-sqlite3 connection of its own, so a store function written against it
 * runs unchanged in either place. Parameters: strings, numbers, null, booleans and Dates
 * (stored as the driver stores them: 1/0 and UTC `YYYY-MM-DD HH:MM:SS.SSS` text on SQLite).
 */
export interface Sql {
  readonly dialect: Dialect;
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  run(sql: string, params?: readonly unknown[]): Promise<RunResult>;
  /**
   * A number that changes with every commit that changes what a search answers (pages, their
   * groups, group names, the search index: `search_generation`, counted up by SQLite triggers),
   * on connections that never write themselves (the read pool's); null elsewhere. Search
   * answers cached under one generation are valid as long as it stays the same.
   */
  searchGeneration(): Promise<number | null>;
}

/** A WHERE condition and its parameters, composed into a larger statement. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The conditions joined with AND (each parenthesised); `1 = 1` for none. */
export function allOf(conditions: SqlCondition[]): SqlCondition {
  if (conditions.length === 0) return { sql: '1 = 1', params: [] };
  return {
    sql: conditions.map((c) => `(${c.sql})`).join(' AND '),
    params: conditions.flatMap((c) => c.params),
  };
}

/** `?, ?, ?` for a list of values (callers never pass an empty list). */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * A read that may take more than a millisecond or two (lists over many rows, search, graph,
 * archive batches): a named plain function over `Sql`, with structured-cloneable arguments and
 * result. `Database.read` runs it; the name is what lets a worker thread that imports the same
 * module run it on a connection of its own instead of the main thread.
 */
export interface ReadQuery<A extends unknown[], R> {
  readonly name: string;
  readonly run: (sql: Sql, ...args: A) => Promise<R>;
  /**
   * A read whose answer may be a moment old (lists, search, graph, tags, review due): with
   * DATABASE_REPLICA_URLS it may run on a read replica. Never for a read a write depends on.
   */
  readonly lagTolerant: boolean;
}

export function readQuery<A extends unknown[], R>(
  name: string,
  run: (sql: Sql, ...args: A) => Promise<R>,
  options: { lagTolerant?: boolean } = {},
): ReadQuery<A, R> {
  return { name, run, lagTolerant: options.lagTolerant ?? false };
}

/** Any ReadQuery: arguments differ per query; a registry only looks them up by name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyReadQuery = ReadQuery<any[], unknown>;

/** ReadQueries by name (what a worker thread looks a query up in); a name may appear once. */
export function readQueriesByName(queries: AnyReadQuery[]): Map<string, AnyReadQuery> {
  const byName = new Map<string, AnyReadQuery>();
  for (const query of queries) {
    if (byName.has(query.name)) throw new Error(`Two read queries are named ${query.name}`);
    byName.set(query.name, query);
  }
  return byName;
}

/**
 * A condition with `?` placeholders as TypeORM query-builder text with named parameters
 * (`:<prefix>0`, `:<prefix>1`, ...), for repositories that compose with the query builder.
 * The fragments composed this way never hold a literal `?`.
 */
export function namedCondition(
  condition: SqlCondition,
  prefix: string,
): { sql: string; params: Record<string, unknown> } {
  let index = 0;
  const params: Record<string, unknown> = {};
  const sql = condition.sql.replace(/\?/g, () => {
    const name = `${prefix}${index}`;
    params[name] = condition.params[index];
    index += 1;
    return `:${name}`;
  });
  if (index !== condition.params.length)
    throw new Error(`namedCondition: ${index} placeholders for ${condition.params.length} params`);
  return { sql, params };
}
