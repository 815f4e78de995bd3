import { CORE_SCHEMA, load } from 'js-yaml';

export interface FrontMatterSplit {
  /** The raw front matter text, undefined when the document has none. */
  raw?: string;
  body: string;
}

const YAML_BLOCK = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;
// Wiki.js writes the front matter of HTML pages as a leading comment.
const HTML_COMMENT_BLOCK = /^<!--[ \t]*\r?\n([\s\S]*?)\r?\n-->[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(text: string, html = false): FrontMatterSplit {
  const match = (html ? HTML_COMMENT_BLOCK : YAML_BLOCK).exec(text);
  if (!match) return { body: text };
  return { raw: match[1], body: text.slice(match[0].length) };
}

/**
 * YAML front matter as an object. Wiki.js writes values unquoted (`title: Setup: Docker` is
 * its normal output and not valid YAML), so when strict YAML fails, or when `lenient` is set,
 * each `key: value` line is read as key and the rest of the line.
 */
export function parseFrontMatter(raw: string, lenient = false): Record<string, unknown> {
  if (!lenient) {
    try {
      const value = load(raw, { schema: CORE_SCHEMA });
      if (value && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // fall through to the line reader
    }
  }
  const result: Record<string, unknown> = {};
  for (const line of raw.split(/\r?\n/)) {
    const match = /^([A-Za-z0-9_-]+):[ \t]*(.*)$/.exec(line);
    if (!match) continue;
    let value: unknown = match[2].trim();
    if (/^(['"]).*\1$/.test(value as string)) value = (value as string).slice(1, -1);
    if (value === 'true') value = true;
    else if (value === 'false') value = false;
    result[match[1]] = value;
  }
  return result;
}

/** Tags from front matter: a YAML list or a comma-separated string. */
export function tagsFrom(value: unknown): string[] | undefined {
  const list = Array.isArray(value)
    ? value.map((v) => (v && typeof v === 'object' && 'tag' in v ? (v as { tag: unknown }).tag : v))
    : typeof value === 'string'
      ? value.split(',')
      : [];
  const tags = [
    ...new Set(
      list
        .filter((t): t is string | number => typeof t === 'string' || typeof t === 'number')
        .map((t) => String(t).trim())
        .filter(Boolean),
    ),
  ];
  return tags.length ? tags : undefined;
}

/** JSON-safe copy of front matter values (dates as ISO strings). */
export function jsonSafe(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, jsonSafe(v)]),
    );
  }
  return value;
}
