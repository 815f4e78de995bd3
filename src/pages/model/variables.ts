import type { FieldProblem } from '../../common/problems/problem';

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const MAX_VARIABLE_VALUE_LENGTH = 10_000;
export const MAX_VARIABLES = 200;

/** `{{name}}` or `{{ name }}`. */
const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_-]{0,63})\s*\}\}/g;

/** Names referenced as `{{name}}` by the Markdown, in order of first use. */
export function referencedVariableNames(markdown: string): string[] {
  const names = new Set<string>();
  for (const match of markdown.matchAll(REFERENCE)) names.add(match[1]);
  return [...names];
}

/** Replaces `{{name}}` with its value; unknown names stay as written. One pass, no recursion. */
export function substituteVariables(markdown: string, values: Record<string, string>): string {
  if (!markdown.includes('{{')) return markdown;
  return markdown.replace(REFERENCE, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole,
  );
}

/** Site-wide values overridden by the page's own. */
export function mergeVariables(
  site: Record<string, string>,
  page: Record<string, string>,
): Record<string, string> {
  return { ...site, ...page };
}

/**
 * Validates a `{name: value}` map: exact names (letters, digits, `_`, `-`, starting with a letter
 * or `_`, at most 64), string values of at most 10,000 characters. One problem per bad entry.
 */
export function variableProblems(value: unknown, field = 'variables'): FieldProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [
      {
        field,
        code: 'not_an_object',
        message: 'variables must be an object of name: string value.',
      },
    ];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const problems: FieldProblem[] = [];
  // Over the cap: one problem, without looking at the entries.
  if (entries.length > MAX_VARIABLES)
    return [{ field, code: 'too_many_variables', message: `At most ${MAX_VARIABLES} variables.` }];
  for (const [name, v] of entries) {
    const path = `${field}.${name}`;
    if (!VARIABLE_NAME.test(name)) {
      problems.push({
        field: path,
        code: 'invalid_variable_name',
        message: 'Names are 1-64 letters, digits, "_" or "-", starting with a letter or "_".',
      });
    } else if (typeof v !== 'string') {
      problems.push({
        field: path,
        code: 'not_a_string',
        message: 'A variable value must be a string.',
      });
    } else if (v.length > MAX_VARIABLE_VALUE_LENGTH) {
      problems.push({
        field: path,
        code: 'value_too_long',
        message: `A variable value may have at most ${MAX_VARIABLE_VALUE_LENGTH} characters.`,
      });
    }
  }
  return problems;
}
