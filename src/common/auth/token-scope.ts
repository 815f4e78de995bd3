import { SetMetadata } from '@nestjs/common';
import type { SqlCondition } from '../database/sql';
import { ForbiddenProblem, Problem, type FieldProblem } from '../problems/problem';

/**
 * Path-scoped credentials (issue 34): a personal access token (and, later, an OAuth grant) may
 * be limited to slug patterns (`paths`) and to verbs (`permissions`). This file is the one
 * place that decides what such a limit lets through; the pages' visibility rule (reads, lists,
 * search, tree, tags, events, exports, MCP) and every page write call it.
 *
 * A pattern is `**` (every page), a slug (that page only) or a slug followed by `/**` (that
 * page and every page under it, at any depth: `docs/team-a/**` holds `docs/team-a` and
 * `docs/team-a/x/y`, not `docs/team-a-old` nor `docs`).
 */
export const TOKEN_PERMISSIONS = ['read', 'write', 'import', 'comment'] as const;
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

/** The most patterns one credential may hold, and the longest one. */
export const MAX_TOKEN_PATHS = 50;
export const MAX_TOKEN_PATH_LENGTH = 258;

/** What limits a caller beyond its role; absent members mean "no limit". */
export interface PathScope {
  /** Slug patterns; undefined: every page. */
  paths?: string[];
  /** Verbs; undefined: all of them. */
  permissions?: TokenPermission[];
}

const SEGMENT = /^[\p{L}\p{M}\p{N}_.-]+$/u;
const ANY = '**';
const SUBTREE = '/**';

/** A pattern as given, normalised (trimmed, NFC, lowercase, no surrounding slashes). */
export function normalisePathPattern(input: string): string {
  return input
    .trim()
    .normalize('NFC')
    .toLowerCase()
    .normalize('NFC')
    .replace(/^\/+|\/+$/g, '');
}

/** Field problems of one normalised pattern (`field`: where it was sent). */
export function pathPatternProblems(pattern: string, field: string): FieldProblem[] {
  const problem = (code: string, message: string): FieldProblem[] => [{ field, code, message }];
  if (pattern === ANY) return [];
  const base = pattern.endsWith(SUBTREE) ? pattern.slice(0, -SUBTREE.length) : pattern;
  if (base.length === 0 || [...pattern].length > MAX_TOKEN_PATH_LENGTH)
    return problem(
      'invalid_path_pattern',
      'A pattern is `**`, a slug, or a slug followed by `/**`.',
    );
  const segments = base.split('/');
  if (segments.some((s) => s === '.' || s === '..'))
    return problem('invalid_path_pattern', 'The segments "." and ".." are not allowed.');
  if (!segments.every((s) => SEGMENT.test(s)))
    return problem(
      'invalid_path_pattern',
      'A pattern is `**`, a slug, or a slug followed by `/**` (no other wildcards, no empty segments).',
    );
  return [];
}

/** Whether the normalised slug `slug` is within one of `paths` (undefined: unlimited). */
export function slugInPaths(slug: string, paths: readonly string[] | undefined): boolean {
  if (paths === undefined) return true;
  return paths.some((pattern) => {
    if (pattern === ANY) return true;
    if (!pattern.endsWith(SUBTREE)) return slug === pattern;
    const base = pattern.slice(0, -SUBTREE.length);
    return slug === base || slug.startsWith(`${base}/`);
  });
}

/** The same test as SQL over the slug column `column`; null when there is no limit. */
export function pathsSql(
  paths: readonly string[] | undefined,
  column: string,
): SqlCondition | null {
  if (paths === undefined || paths.includes(ANY)) return null;
  if (paths.length === 0) return { sql: '1 = 0', params: [] };
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const pattern of paths) {
    if (!pattern.endsWith(SUBTREE)) {
      parts.push(`${column} = ?`);
      params.push(pattern);
      continue;
    }
    const base = pattern.slice(0, -SUBTREE.length);
    const under = `${base}/`;
    // SUBSTR, not LIKE: slugs hold `_`, a LIKE wildcard, and the two databases escape apart.
    parts.push(`(${column} = ? OR SUBSTR(${column}, 1, ${[...under].length}) = ?)`);
    params.push(base, under);
  }
  return { sql: `(${parts.join(' OR ')})`, params };
}

/** Whether the caller may use `verb` (a caller without a verb limit may use every verb). */
export function hasPermission(scope: PathScope, verb: TokenPermission): boolean {
  return scope.permissions === undefined || scope.permissions.includes(verb);
}

/** 403 `token_permission_missing` unless the caller's credential carries `verb`. */
export function requirePermission(scope: PathScope, verb: TokenPermission): void {
  if (!hasPermission(scope, verb))
    throw new ForbiddenProblem(
      'token_permission_missing',
      `This credential does not carry the permission "${verb}".`,
    );
}

/**
 * 403 `outside_token_paths` unless every one of `slugs` (normalised) is within the caller's
 * paths: a page write names each slug it reads from or writes to (a create its slug, a move
 * both ends and every page it carries, an import its prefix).
 */
export function requireSlugsInScope(scope: PathScope, slugs: readonly string[]): void {
  const outside = slugs.find((slug) => !slugInPaths(slug, scope.paths));
  if (outside !== undefined)
    throw new Problem(
      403,
      'outside_token_paths',
      `This credential may not change "${outside}": it is outside its paths (${(scope.paths ?? []).join(', ')}).`,
      { slug: outside },
    );
}

/**
 * 403 `outside_token_paths` unless every page under `prefix` (and `prefix` itself) is within
 * the caller's paths: an import (its prefix, a mirror's scope) is judged before it writes
 * anything. No prefix: the whole wiki, so only `**` allows it.
 */
export function requireSubtreeInScope(scope: PathScope, prefix: string | null): void {
  if (scope.paths === undefined || scope.paths.includes(ANY)) return;
  const covered =
    prefix !== null &&
    prefix !== '' &&
    scope.paths.some((pattern) => {
      if (!pattern.endsWith(SUBTREE)) return false;
      const base = pattern.slice(0, -SUBTREE.length);
      return prefix === base || prefix.startsWith(`${base}/`);
    });
  if (!covered)
    throw new Problem(
      403,
      'outside_token_paths',
      `This credential may not import ${prefix ? `under "${prefix}"` : 'without a prefix'}: it reaches outside its paths (${scope.paths.join(', ')}).`,
      { slug: prefix ?? '' },
    );
}

/** Whether the caller is limited at all (a key part for caches of visibility-filtered answers). */
export function scopeKey(scope: PathScope): string {
  return scope.paths === undefined ? '' : JSON.stringify([...scope.paths].sort());
}

export const TOKEN_VERB_KEY = 'kb:tokenVerb';
/**
 * The verb a route's changing requests (not GET/HEAD, which need `read`) need from a
 * verb-limited credential; default `write`. `call` leaves every request to the handler (the
 * MCP endpoint checks each tool call).
 */
export const TokenVerb = (verb: TokenPermission | 'call'): MethodDecorator & ClassDecorator =>
  SetMetadata(TOKEN_VERB_KEY, verb);

export const WHOLE_WIKI_KEY = 'kb:wholeWiki';
/**
 * A route that reaches the whole wiki whatever the caller's paths (webhooks receive the events
 * of every page): a path-scoped credential is refused (403 `whole_wiki_route`).
 */
export const WholeWikiOnly = (): MethodDecorator & ClassDecorator =>
  SetMetadata(WHOLE_WIKI_KEY, true);
