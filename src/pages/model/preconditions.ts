import { BadRequestProblem } from '../../common/problems/problem';

/**
 * A parsed `If-Match` header (RFC 9110 §13.1.1): `*`, or the revisions named by its strong
 * entity tags. If-Match compares strongly, so weak tags (`W/"3"`) never match and are dropped,
 * as are strong tags that are not a revision of ours (`"abc"`): `revisions` may be empty.
 */
export type IfMatch = { any: true } | { any: false; revisions: number[] };

/** One entity tag: optional `W/`, then a quoted opaque value (no `"`, no controls). */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\uffff]*)"$/;
const REVISION = /^[1-9]\d{0,8}$/;

function invalidIfMatch(): BadRequestProblem {
  return new BadRequestProblem(
    'invalid_if_match',
    'If-Match must be the ETag of a page read, such as "3" (or a list of them).',
  );
}

/**
 * Parses If-Match: `*` or a comma-separated list of entity tags (`"3"`, `"2", "3"`); absent or
 * blank is undefined. Anything else is 400 `invalid_if_match`.
 */
export function parseIfMatch(header: string | undefined): IfMatch | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const value = header.trim();
  if (value === '*') return { any: true };
  const revisions: number[] = [];
  const tags = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const tag of tags) {
    const match = ENTITY_TAG.exec(tag);
    if (!match) throw invalidIfMatch();
    if (!match[1] && REVISION.test(match[2])) revisions.push(Number(match[2]));
  }
  if (tags.length === 0) throw invalidIfMatch();
  return { any: false, revisions };
}

/** Whether If-Match lets a write to a page at `revision` through (strong comparison). */
export function ifMatchAllows(ifMatch: IfMatch | undefined, revision: number): boolean {
  if (ifMatch === undefined || ifMatch.any) return true;
  return ifMatch.revisions.includes(revision);
}
