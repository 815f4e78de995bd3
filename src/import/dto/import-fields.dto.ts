import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';
import {
  IMPORT_FORMATS,
  IMPORT_MODES,
  ImportFormat,
  ImportMode,
  ImportOptions,
} from '../import.types';
import { normalizePrefix } from '../slugs';

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
  'async',
] as const;

/**
 * A constraint named for its problem code (`invalidMode` → `invalid_mode`), on a form field:
 * every field is text, so every problem is a 422.
 */
function Check(
  code: string,
  valid: (value: unknown, dto: ImportFieldsDto) => boolean,
  message: string | ((args: ValidationArguments) => string),
): PropertyDecorator {
  return ValidateBy({
    name: code,
    validator: {
      validate: (value, args) => valid(value, args?.object as ImportFieldsDto),
      defaultMessage: (args) => (typeof message === 'string' ? message : message(args!)),
    },
  });
}

const lowerCase = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() || undefined : value;

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** `true`/`false` (also 1/0, yes/no, on/off); empty means absent; anything else stays text. */
const toBoolean = ({ value }: { value: unknown }): unknown => {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (text === '' || text === undefined) return undefined;
  if (TRUE.includes(text as string)) return true;
  if (FALSE.includes(text as string)) return false;
  return value;
};

const Flag = (name: string): PropertyDecorator =>
  Check(
    'invalidBoolean',
    (value) => value === undefined || typeof value === 'boolean',
    `${name} must be true or false.`,
  );

const prefixError = (value: unknown): string | undefined => {
  const prefix = normalizePrefix(typeof value === 'string' ? value : undefined);
  return 'error' in prefix ? prefix.error : undefined;
};

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && value.length <= 2000;
  } catch {
    return false;
  }
}

/** The text fields of POST /api/import, checked with the one validation pipe (as a query). */
export class ImportFieldsDto {
  @Transform(lowerCase)
  @Check(
    'required',
    (value) => value !== undefined,
    `format is required: one of ${IMPORT_FORMATS.join(', ')}.`,
  )
  @Check(
    'invalidFormat',
    (value) => value === undefined || (IMPORT_FORMATS as readonly unknown[]).includes(value),
    `format must be one of ${IMPORT_FORMATS.join(', ')}.`,
  )
  format?: string;

  @Check(
    'invalidSlug',
    (value) => prefixError(value) === undefined,
    ({ value }) => prefixError(value) ?? '',
  )
  // Mirroring the whole wiki would bin every page the upload does not hold.
  @Check(
    PREFIX_REQUIRED,
    (value, dto) =>
      dto.mode !== 'mirror' || prefixError(value) !== undefined || normalizedPrefix(value) !== '',
    'mode=mirror needs a prefix: only pages under it are mirrored.',
  )
  prefix?: string;

  @Transform(lowerCase)
  @Check(
    'invalidMode',
    (value) => value === undefined || (IMPORT_MODES as readonly unknown[]).includes(value),
    `mode must be one of ${IMPORT_MODES.join(', ')}.`,
  )
  mode?: string;

  @Transform(toBoolean)
  @Flag('dryRun')
  dryRun?: boolean;

  @Transform(toBoolean)
  @Flag('skipInvalid')
  skipInvalid?: boolean;

  @Transform(toBoolean)
  @Flag('cleanConfluence')
  cleanConfluence?: boolean;

  @Transform(toBoolean)
  @Flag('includeBlogPosts')
  includeBlogPosts?: boolean;

  @Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @Check(
    'invalidUrl',
    (value) => value === undefined || (typeof value === 'string' && isHttpUrl(value)),
    'jiraBaseUrl must be an http(s) URL, such as https://jira.example.com.',
  )
  jiraBaseUrl?: string;

  @Transform(toBoolean)
  @Flag('async')
  async?: boolean;
}

function normalizedPrefix(value: unknown): string {
  const prefix = normalizePrefix(typeof value === 'string' ? value : undefined);
  return 'prefix' in prefix ? prefix.prefix : '';
}

/** The options of a checked import, its defaults filled in. */
export function toImportOptions(fields: ImportFieldsDto): ImportOptions {
  const format = fields.format as ImportFormat;
  return {
    format,
    prefix: normalizedPrefix(fields.prefix),
    mode: (fields.mode ?? 'merge') as ImportMode,
    dryRun: fields.dryRun ?? false,
    skipInvalid: fields.skipInvalid ?? false,
    // Confluence page chrome is removed by default from what comes as Confluence.
    cleanConfluence: fields.cleanConfluence ?? format === 'confluence',
    includeBlogPosts: fields.includeBlogPosts ?? false,
    jiraBaseUrl: fields.jiraBaseUrl,
  };
}
