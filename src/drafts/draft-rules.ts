import {
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { joinSlugParam } from '../common/http/slug-param';
import { FieldProblems } from '../common/problems/problem';
import { DRAFT_SERVER_MEMBERS } from './drafts.mapper';
import type { PutDraftBody } from './dto/put-draft.dto';

/** `page:` and the longest slug (255 characters) fit, with room for a client's own prefix. */
export const DRAFT_KEY_MAX_LENGTH = 300;
export const DRAFT_TITLE_MAX_LENGTH = 500;
/** Letters (and their combining marks) and digits of any script, as in a slug, and `-_.:/`. */
const KEY_PATTERN = /^[\p{L}\p{M}\p{N}\-_.:/]+$/u;
export const KEY_RULE = `A draft key is 1-${DRAFT_KEY_MAX_LENGTH} characters of letters, digits, "-", "_", ".", ":" and "/".`;

/**
 * A key as sent (a path's segments, already percent-decoded): NFC, so `page:team/über-uns`
 * typed with a combining diaeresis is the same draft as the page API's NFC slug. Case stays.
 */
export function normaliseDraftKey(key: string): string {
  return key.normalize('NFC');
}

/** The key rule: 1-300 characters of letters, digits and `-_.:/` (case-sensitive). */
export function isDraftKey(key: string): boolean {
  const length = [...key].length;
  return length > 0 && length <= DRAFT_KEY_MAX_LENGTH && KEY_PATTERN.test(key);
}

/** The draft's URL path: each segment percent-encoded, so a Location header stays ASCII. */
export function draftPath(key: string): string {
  const segment = (s: string) => encodeURIComponent(s).replace(/%3A/g, ':');
  return `/api/drafts/${key.split('/').map(segment).join('/')}`;
}

/**
 * The `*key` path parameter (Express hands over its segments) as one key; 422 `invalid_key` on
 * `key` when it breaks the rule. A param decorator rather than `@Param()`, whose global pipe
 * would turn the segments into one comma-joined string.
 */
export const DraftKey = createParamDecorator((_data: unknown, context: ExecutionContext) => {
  const key = normaliseDraftKey(
    joinSlugParam(context.switchToHttp().getRequest<Request>().params.key),
  );
  if (!isDraftKey(key)) {
    throw new FieldProblems([{ field: 'key', code: 'invalid_key', message: KEY_RULE }]);
  }
  return key;
});

/**
 * Copies the `*key` path parameter into a PUT body (where a `key` the client sent is a server
 * member, ignored anyway), so the validation pipe checks the key with the body's members and one
 * 422 lists every field problem. A body that is not a JSON object is left to the pipe's 400.
 */
@Injectable()
export class DraftKeyInBody implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const body: unknown = req.body;
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      (body as Record<string, unknown>).key = normaliseDraftKey(joinSlugParam(req.params.key));
    }
    return next.handle();
  }
}

export interface DraftDocument {
  document: Record<string, unknown>;
  title: string | null;
  /** UTF-8 bytes of the JSON that is stored. */
  size: number;
}

/**
 * What a valid PUT body stores: every member but the server's (so a GET answer can be sent back
 * unchanged), its title, and its size.
 */
export function draftDocument(input: PutDraftBody): DraftDocument {
  const document: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || (DRAFT_SERVER_MEMBERS as readonly string[]).includes(name)) continue;
    Object.defineProperty(document, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const size = Buffer.byteLength(JSON.stringify(document), 'utf8');
  return { document, title: input.title ?? null, size };
}
