import type { Lifecycle, Page, PropertyValue } from '../../../api/types';

export interface Row {
  name: string;
  value: string;
  /** The value as read, so an untouched number or boolean property keeps its type. */
  original?: PropertyValue;
}

/** Everything the editor lets a person change, as form values. */
export interface PageFields {
  slug: string;
  title: string;
  content: string;
  icon: string;
  language: string;
  tags: string;
  lifecycle: Lifecycle;
  owner: string;
  reviewIntervalDays: string;
  /** yyyy-mm-dd as a date input holds it. */
  nextReviewDate: string;
  /** The stored value, kept when the date was not changed. */
  nextReviewAt: string | null;
  groups: string[];
  deprecatedTarget: string;
  verified: boolean;
  properties: Row[];
  variables: Row[];
  /** The change summary saved with the revision (not a page field: it starts empty). */
  summary: string;
}

export function emptyFields(slug = ''): PageFields {
  return {
    slug,
    title: '',
    content: '',
    icon: '',
    language: '',
    tags: '',
    lifecycle: 'published',
    owner: '',
    reviewIntervalDays: '',
    nextReviewDate: '',
    nextReviewAt: null,
    groups: [],
    deprecatedTarget: '',
    verified: false,
    properties: [],
    variables: [],
    summary: '',
  };
}

export function fieldsOf(page: Page): PageFields {
  return {
    slug: page.slug,
    title: page.title,
    content: page.content,
    icon: page.icon ?? '',
    language: page.language ?? '',
    tags: page.tags.join(', '),
    lifecycle: page.lifecycle,
    owner: page.owner ?? '',
    reviewIntervalDays: page.reviewIntervalDays === null ? '' : String(page.reviewIntervalDays),
    nextReviewDate: page.nextReviewAt ? page.nextReviewAt.slice(0, 10) : '',
    nextReviewAt: page.nextReviewAt,
    groups: [...page.groups],
    deprecatedTarget: page.deprecatedTarget ?? '',
    verified: page.verified,
    properties: Object.entries(page.properties).map(([name, value]) => ({
      name,
      value: value === null ? '' : String(value),
      original: value,
    })),
    variables: Object.entries(page.variables).map(([name, value]) => ({ name, value })),
    summary: '',
  };
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim());

function nextReviewOf(fields: PageFields): string | null {
  if (!fields.nextReviewDate) return null;
  if (fields.nextReviewAt && fields.nextReviewAt.startsWith(fields.nextReviewDate)) {
    return fields.nextReviewAt;
  }
  return `${fields.nextReviewDate}T00:00:00.000Z`;
}

/** Rows to an object; a row without a name is left out (an empty row being typed). */
function objectOf<T>(rows: Row[], value: (row: Row) => T): Record<string, T> {
  const result: Record<string, T> = {};
  for (const row of rows) if (row.name.trim()) result[row.name.trim()] = value(row);
  return result;
}

function propertyValue(row: Row): PropertyValue {
  if (
    row.original !== undefined &&
    row.value === (row.original === null ? '' : String(row.original))
  ) {
    return row.original;
  }
  return row.value;
}

/** The page JSON of the form, as POST and PUT take it. */
export function bodyOf(fields: PageFields) {
  const interval = fields.reviewIntervalDays.trim();
  return {
    slug: fields.slug.trim(),
    title: fields.title,
    content: fields.content,
    icon: orNull(fields.icon),
    language: orNull(fields.language),
    tags: fields.tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
    lifecycle: fields.lifecycle,
    owner: orNull(fields.owner),
    reviewIntervalDays: interval === '' ? null : Number(interval),
    nextReviewAt: nextReviewOf(fields),
    groups: fields.groups,
    deprecatedTarget: orNull(fields.deprecatedTarget),
    verified: fields.verified,
    properties: objectOf(fields.properties, propertyValue),
    variables: objectOf(fields.variables, (row) => row.value),
    // A draft kept by an older console has no summary.
    summary: orNull(fields.summary ?? ''),
  };
}

export type PageBody = ReturnType<typeof bodyOf>;

/** Which form section a field problem belongs to (`tags.3` → `tags`, `variables.x` → `variables`). */
export function fieldGroup(field: string): string {
  return field.split('.')[0];
}
