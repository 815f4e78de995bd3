import { FieldProblem, FieldProblems } from '../../common/problems/problem';

/** A change summary is one line of at most this many characters (page_revisions.summary). */
export const MAX_SUMMARY_LENGTH = 500;

// Control characters (a newline included: a summary is one line) are what this rejects.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_RUNS = /[\u0000-\u001f\u007f]+/g;

/** Problems of a `summary` sent with a write (absent, null and blank are fine: no summary). */
export function summaryProblems(summary: string | null | undefined): FieldProblem[] {
  const text = summary?.trim() ?? '';
  if ([...text].length > MAX_SUMMARY_LENGTH)
    return [
      {
        field: 'summary',
        code: 'summary_too_long',
        message: `The summary may have at most ${MAX_SUMMARY_LENGTH} characters.`,
      },
    ];
  if (CONTROL.test(text))
    return [
      {
        field: 'summary',
        code: 'invalid_summary',
        message: 'The summary is one line without control characters.',
      },
    ];
  return [];
}

/** The summary a revision stores: trimmed, NFC; null when absent or blank. */
export function revisionSummary(summary: string | null | undefined): string | null {
  const text = summary?.trim().normalize('NFC') ?? '';
  return text === '' ? null : text;
}

/**
 * Runs `resolve` (the page fields' rules) and reports a bad summary in the same 422 as the
 * fields' problems, so a client sees every problem at once.
 */
export async function withSummary<T>(
  summary: string | null | undefined,
  resolve: () => Promise<T>,
): Promise<{ value: T; summary: string | null }> {
  const problems = summaryProblems(summary);
  let value: T;
  try {
    value = await resolve();
  } catch (error) {
    if (problems.length > 0 && error instanceof FieldProblems)
      throw new FieldProblems([...error.errors, ...problems]);
    throw error;
  }
  if (problems.length > 0) throw new FieldProblems(problems);
  return { value, summary: revisionSummary(summary) };
}

/**
 * A summary that did not come with a request (an imported archive's): made to fit — one line,
 * cut at the limit — rather than refused, since the archive is not the importer's to fix.
 */
export function fittedSummary(summary: string | null | undefined): string | null {
  const line = revisionSummary(summary?.replace(CONTROL_RUNS, ' '));
  return line === null ? null : [...line].slice(0, MAX_SUMMARY_LENGTH).join('');
}
