import { FieldProblem, FieldProblems } from '../../common/problems/problem';

export const MAX_OVERRIDE_LENGTH = 10_000;

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
