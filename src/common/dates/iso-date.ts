/**
 * The one date parser for request members (issue 9 item 12). JavaScript's `new Date(text)`
 * rolls invalid days over (`2026-02-30` becomes March 2) and MariaDB reads two-digit-looking
 * years its own way (`0001` became 2001), so kb accepts only:
 *
 * - `YYYY-MM-DD` (midnight UTC), or
 * - `YYYY-MM-DDTHH:MM[:SS[.fraction]]` with `Z` or an offset `±HH:MM` (none: UTC),
 *
 * with a real calendar day and time, and an instant from 1970-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999Z, which both databases store exactly (MariaDB DATETIME(3), SQLite text).
 */
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

export const MIN_DATE = new Date(Date.UTC(1970, 0, 1));
export const MAX_DATE = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

export const DATE_RULE =
  'an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SS with Z or ±HH:MM) from 1970-01-01 to 9999-12-31';

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The instant `text` names, or null when it is not a valid date within the supported range. */
export function parseIsoDate(text: string): Date | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((p) => Number(p ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const millis = Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (match[8] && match[8] !== 'Z') {
    const [offsetHours, offsetMins] = [Number(match[9]), Number(match[10])];
    if (offsetHours > 23 || offsetMins > 59) return null;
    offsetMinutes = (match[8].startsWith('-') ? -1 : 1) * (offsetHours * 60 + offsetMins);
  }
  const utc = new Date(0);
  // setUTCFullYear keeps years below 100 as they are (Date.UTC would add 1900).
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, millis);
  const instant = new Date(utc.getTime() - offsetMinutes * 60_000);
  if (instant < MIN_DATE || instant > MAX_DATE) return null;
  return instant;
}
