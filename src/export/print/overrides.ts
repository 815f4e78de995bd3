import { BadRequestProblem, FieldProblem, FieldProblems } from '../../common/problems/problem';

export const MAX_OVERRIDE_LENGTH = 10_000;

/** Stands for a body the JSON parser left alone (another Content-Type): malformed here. */
export const NOT_JSON = Symbol('NOT_JSON');

/** The parsed JSON body, undefined when there is none, NOT_JSON when one was sent in another type. */
export function postedBody(req: {
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
}): unknown {
  if (req.body !== undefined) return req.body;
  const length = Number(req.headers['content-length'] ?? 0);
  return length > 0 || req.headers['transfer-encoding'] !== undefined ? NOT_JSON : undefined;
}

/**
 * The body of POST /export/preview and /export/pdf: `{"variables": {"name": "value"}}`, or
 * nothing / `{}` for the saved values. Syntax errors are 400: not a JSON object, `variables`
 * not an object. Unknown top-level members are 422 field problems.
 */
export function parseOverrideBody(body: unknown): Record<string, unknown> {
  if (body === NOT_JSON) {
    throw new BadRequestProblem(
      'invalid_body',
      'The request body must be JSON (Content-Type: application/json) like {"variables": {"name": "value"}}.',
    );
  }
  if (body === undefined) return {};
  if (body === null)
    throw new BadRequestProblem(
      'invalid_body',
      'The request body must be a JSON object like {"variables": {"name": "value"}}.',
    );
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestProblem(
      'invalid_body',
      'The request body must be a JSON object like {"variables": {"name": "value"}}.',
    );
  }
  const { variables, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (
    variables !== undefined &&
    (variables === null || typeof variables !== 'object' || Array.isArray(variables))
  ) {
    throw new BadRequestProblem(
      'invalid_variables',
      '"variables" must be a JSON object of name: string value.',
    );
  }
  if (unknown.length) {
    throw new FieldProblems(
      unknown.map((field) => ({
        field,
        code: 'unknown_field',
        message: `property ${field} should not exist`,
      })),
    );
  }
  return (variables ?? {}) as Record<string, unknown>;
}

/**
 * Checks overrides against the page: each name must be a variable the page can use (defined
 * for the page or site-wide AND referenced by its content) and each value a string of at most
 * 10,000 characters. One field problem per bad name; the valid map otherwise.
 */
export function validateOverrides(
  overrides: Record<string, unknown>,
  defined: Record<string, string>,
  usable: readonly string[],
): Record<string, string> {
  const usableSet = new Set(usable);
  const problems: FieldProblem[] = [];
  for (const [name, value] of Object.entries(overrides)) {
    const field = `variables.${name}`;
    if (!usableSet.has(name)) {
      problems.push(
        Object.prototype.hasOwnProperty.call(defined, name)
          ? {
              field,
              code: 'unused_variable',
              message: `The page does not use the variable "${name}".`,
            }
          : {
              field,
              code: 'unknown_variable',
              message: `"${name}" is not a variable of this page or of the site.`,
            },
      );
    } else if (typeof value !== 'string') {
      problems.push({ field, code: 'not_a_string', message: 'A variable value must be a string.' });
    } else if (value.length > MAX_OVERRIDE_LENGTH) {
      problems.push({
        field,
        code: 'value_too_long',
        message: `A variable value may have at most ${MAX_OVERRIDE_LENGTH} characters.`,
      });
    }
  }
  if (problems.length)
    throw new FieldProblems(problems, 'Some variable overrides are invalid or unused.');
  return overrides as Record<string, string>;
}
