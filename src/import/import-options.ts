import { FieldProblem, FieldProblems, Problem } from '../common/problems/problem';
import {
  IMPORT_FORMATS,
  IMPORT_MODES,
  ImportFormat,
  ImportMode,
  ImportOptions,
} from './import.types';
import { normalizePrefix } from './slugs';

export const PREFIX_REQUIRED = 'prefix_required';

/** The multipart fields POST /api/import reads besides the files. */
export const IMPORT_FIELDS = [
  'format',
  'prefix',
  'mode',
  'dryRun',
  'skipInvalid',
  'cleanConfluence',
  'includeBlogPosts',
  'jiraBaseUrl',
] as const;

/**
 * The problem for a request whose only fault is mode=mirror without a prefix: 422 with the code
 * `prefix_required` (and the field problem), so a client can tell it from other field errors.
 */
export function importFieldsProblem(problems: FieldProblem[]): Problem {
  if (problems.length === 1 && problems[0].code === PREFIX_REQUIRED)
    return new Problem(422, PREFIX_REQUIRED, problems[0].message, { errors: problems });
  return new FieldProblems(problems);
}

export function parseBoolean(
  fields: Record<string, string>,
  name: string,
  problems: FieldProblem[],
  fallback = false,
): boolean {
  const raw = fields[name];
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  problems.push({
    field: name,
    code: 'invalid_boolean',
    message: `${name} must be true or false.`,
  });
  return false;
}

/** Reads and checks the form fields; every bad field is reported at once. */
export function parseImportOptions(
  fields: Record<string, string>,
  problems: FieldProblem[],
): ImportOptions | undefined {
  const format = fields.format?.trim().toLowerCase();
  if (!format) {
    problems.push({
      field: 'format',
      code: 'required',
      message: `format is required: one of ${IMPORT_FORMATS.join(', ')}.`,
    });
  } else if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    problems.push({
      field: 'format',
      code: 'invalid_format',
      message: `format must be one of ${IMPORT_FORMATS.join(', ')}.`,
    });
  }
  const prefix = normalizePrefix(fields.prefix);
  if ('error' in prefix)
    problems.push({ field: 'prefix', code: 'invalid_slug', message: prefix.error });
  const mode = (fields.mode?.trim().toLowerCase() || 'merge') as ImportMode;
  if (!IMPORT_MODES.includes(mode)) {
    problems.push({
      field: 'mode',
      code: 'invalid_mode',
      message: `mode must be one of ${IMPORT_MODES.join(', ')}.`,
    });
  } else if (mode === 'mirror' && 'prefix' in prefix && prefix.prefix === '') {
    // Mirroring the whole wiki would bin every page the upload does not hold.
    problems.push({
      field: 'prefix',
      code: PREFIX_REQUIRED,
      message: 'mode=mirror needs a prefix: only pages under it are mirrored.',
    });
  }
  const dryRun = parseBoolean(fields, 'dryRun', problems);
  const skipInvalid = parseBoolean(fields, 'skipInvalid', problems);
  // Confluence page chrome is removed by default from what comes as Confluence.
  const cleanConfluence = parseBoolean(
    fields,
    'cleanConfluence',
    problems,
    format === 'confluence',
  );
  const includeBlogPosts = parseBoolean(fields, 'includeBlogPosts', problems);
  const jiraBaseUrl = fields.jiraBaseUrl?.trim() || undefined;
  if (jiraBaseUrl !== undefined && !isHttpUrl(jiraBaseUrl))
    problems.push({
      field: 'jiraBaseUrl',
      code: 'invalid_url',
      message: 'jiraBaseUrl must be an http(s) URL, such as https://jira.example.com.',
    });
  if (problems.length > 0) return undefined;
  return {
    format: format as ImportFormat,
    prefix: 'prefix' in prefix ? prefix.prefix : '',
    mode,
    dryRun,
    skipInvalid,
    cleanConfluence,
    includeBlogPosts,
    jiraBaseUrl,
  };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.length <= 2000;
  } catch {
    return false;
  }
}
