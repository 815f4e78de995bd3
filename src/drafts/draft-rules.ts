import {
  BadRequestProblem,
  FieldProblem,
  FieldProblems,
  InvalidTypeProblem,
} from '../common/problems/problem';
import { DRAFT_SERVER_MEMBERS } from './drafts.mapper';

export const DRAFT_KEY_MAX_LENGTH = 200;
export const DRAFT_TITLE_MAX_LENGTH = 500;
const KEY_PATTERN = /^[A-Za-z0-9\-_.:/]+$/;

/** The key rule: 1-200 characters of letters, digits and `-_.:/` (case-sensitive). */
export function keyProblems(key: string): FieldProblem[] {
  if (key.length === 0 || key.length > DRAFT_KEY_MAX_LENGTH || !KEY_PATTERN.test(key)) {
    return [
      {
        field: 'key',
        code: 'invalid_key',
        message: `A draft key is 1-${DRAFT_KEY_MAX_LENGTH} characters of letters, digits, "-", "_", ".", ":" and "/".`,
      },
    ];
  }
  return [];
}

export function assertValidKey(key: string): void {
  const problems = keyProblems(key);
  if (problems.length) throw new FieldProblems(problems);
}

export interface DraftDocument {
  document: Record<string, unknown>;
  title: string | null;
  /** UTF-8 bytes of the JSON that is stored. */
  size: number;
}

/**
 * Checks a PUT body: a JSON object with a string `content` and an optional string `title`;
 * any other members are kept as they are (editors store their own state), except the
 * server's members, which are dropped so a GET answer can be sent back unchanged.
 */
export function parseDraftBody(key: string, body: unknown): DraftDocument {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestProblem(
      'invalid_body',
      'The request body must be a JSON object with a string "content".',
    );
  }
  const problems = keyProblems(key);
  const input = body as Record<string, unknown>;
  // A member of the wrong JSON type is malformed (400); a missing content is a 422 like any rule.
  const typeErrors: FieldProblem[] = [];
  if (typeof input.content !== 'string') {
    (input.content === undefined ? problems : typeErrors).push({
      field: 'content',
      code: 'is_string',
      message: 'content must be a string.',
    });
  }
  const title = input.title;
  if (title !== undefined && title !== null) {
    if (typeof title !== 'string') {
      typeErrors.push({ field: 'title', code: 'is_string', message: 'title must be a string.' });
    } else if (title.length > DRAFT_TITLE_MAX_LENGTH) {
      problems.push({
        field: 'title',
        code: 'max_length',
        message: `title must be at most ${DRAFT_TITLE_MAX_LENGTH} characters.`,
      });
    }
  }
  if (typeErrors.length) throw new InvalidTypeProblem(typeErrors);
  if (problems.length) throw new FieldProblems(problems);
  const document: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(input)) {
    if (!(DRAFT_SERVER_MEMBERS as readonly string[]).includes(name)) document[name] = value;
  }
  const size = Buffer.byteLength(JSON.stringify(document), 'utf8');
  return { document, title: typeof title === 'string' ? title : null, size };
}
