import type { FieldProblem } from '../common/problems/problem';
import { IMPORT_FORMATS, ImportFormat, ImportOptions } from './import.types';
import { normalizePrefix } from './slugs';

/** The multipart fields POST /api/import reads besides the files. */
export const IMPORT_FIELDS = [
  'format',
  'prefix',
  'dryRun',
  'skipInvalid',
  'cleanConfluence',
  'includeBlogPosts',
  'jiraBaseUrl',
] as const;

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
