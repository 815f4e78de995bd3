import { BadRequestProblem, fieldProblem } from '../problems/problem';

export interface Paged<T> {
  items: T[];
  nextCursor: string | null;
}

export interface ListRequest {
  limit: number;
  /** Decoded cursor payload, or null for the first page. */
  cursor: Record<string, unknown> | null;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** Parses `limit` and `cursor` query parameters; a bad value is a 400/422 problem. */
export function parseListRequest(
  query: { limit?: unknown; cursor?: unknown },
  maxLimit = MAX_LIMIT,
): ListRequest {
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined && query.limit !== '') {
    const raw = String(query.limit);
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > maxLimit) {
      throw fieldProblem(
        'limit',
        'out_of_range',
        `limit must be a whole number from 1 to ${maxLimit}.`,
      );
    }
    limit = Number(raw);
  }
  let cursor: Record<string, unknown> | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    cursor = decodeCursor(String(query.cursor));
  }
  return { limit, cursor };
}

export function encodeCursor(payload: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    if (cursor.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('shape');
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error('shape');
    return value as Record<string, unknown>;
  } catch {
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  }
}

/**
 * Builds a page from `limit + 1` fetched rows: the extra row only says whether there is more.
 */
export function toPaged<R, T>(
  rows: R[],
  limit: number,
  map: (row: R) => T,
  cursorOf: (row: R) => Record<string, unknown>,
): Paged<T> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  return {
    items: pageRows.map(map),
    nextCursor: hasMore ? encodeCursor(cursorOf(pageRows[pageRows.length - 1])) : null,
  };
}

/** Reads a string member of a decoded cursor or refuses the cursor. */
export function cursorString(cursor: Record<string, unknown>, key: string): string {
  const value = cursor[key];
  if (typeof value !== 'string')
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  return value;
}

/** Where a list ordered by a timestamp and then id continues: a cursor `{at, id}`. */
export interface CursorPosition {
  at: Date;
  id: string;
}

/** The position of a decoded `{at, id}` cursor, or undefined for the first page; a bad date refuses the cursor. */
export function cursorPosition(cursor: Record<string, unknown> | null): CursorPosition | undefined {
  if (!cursor) return undefined;
  return { at: cursorDate(cursor, 'at'), id: cursorString(cursor, 'id') };
}

/** Reads a date member of a decoded cursor or refuses the cursor. */
export function cursorDate(cursor: Record<string, unknown>, key: string): Date {
  const date = new Date(cursorString(cursor, key));
  if (Number.isNaN(date.getTime()))
    throw new BadRequestProblem('invalid_cursor', 'The cursor is not one this API issued.');
  return date;
}
