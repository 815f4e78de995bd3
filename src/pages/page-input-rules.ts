import type { AuthUser } from '../common/auth/auth-user';
import type { Tx } from '../common/database/database';
import { DATE_RULE, parseIsoDate } from '../common/dates/iso-date';
import type { FieldProblem } from '../common/problems/problem';
import type { PageFieldsDto } from './dto/page.dto';
import type { PageState } from './model/page-state';
import { LIFECYCLES, PropertyValue } from './model/page-columns';
import { normaliseSlugField, slugProblems } from './model/slug';
import { variableProblems } from './model/variables';

/** The request fields the rules apply to (create, update, import). */
export interface PageInput extends PageFieldsDto {
  slug?: string;
  title?: string;
}

export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 64;
export const MAX_TITLE_LENGTH = 255;
export const MAX_PROPERTIES = 100;
export const MAX_PROPERTY_STRING = 10_000;
const LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
// Control characters are exactly what this rejects.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const DAY_MS = 86_400_000;

function length(value: string): number {
  return [...value].length;
}

/** Normalises a tag list; problems at `tags[i]`. */
export function normaliseTags(tags: string[], problems: FieldProblem[], field = 'tags'): string[] {
  const result: string[] = [];
  tags.forEach((raw, index) => {
    const tag = raw.trim().normalize('NFC').toLowerCase();
    if (tag === '' || CONTROL.test(tag)) {
      problems.push({
        field: `${field}[${index}]`,
        code: 'invalid_tag',
        message: 'A tag must be non-empty text without control characters.',
      });
    } else if (length(tag) > MAX_TAG_LENGTH) {
      problems.push({
        field: `${field}[${index}]`,
        code: 'tag_too_long',
        message: `A tag may have at most ${MAX_TAG_LENGTH} characters.`,
      });
    } else if (!result.includes(tag)) {
      result.push(tag);
    }
  });
  if (result.length > MAX_TAGS)
    problems.push({
      field,
      code: 'too_many_tags',
      message: `A page may have at most ${MAX_TAGS} tags.`,
    });
  return result;
}

/** Properties: a JSON object of scalars (string, number, boolean, null). */
export function propertyProblems(value: unknown, field = 'properties'): FieldProblem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ field, code: 'not_an_object', message: 'properties must be a JSON object.' }];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const problems: FieldProblem[] = [];
  // Over the cap: one problem, without looking at the entries.
  if (entries.length > MAX_PROPERTIES)
    return [
      { field, code: 'too_many_properties', message: `At most ${MAX_PROPERTIES} properties.` },
    ];
  for (const [key, v] of entries) {
    const path = `${field}.${key}`;
    if (key.length === 0 || length(key) > 64 || CONTROL.test(key)) {
      problems.push({
        field: path,
        code: 'invalid_property_name',
        message: 'Property names are 1-64 characters without control characters.',
      });
    } else if (!(
      v === null ||
      typeof v === 'boolean' ||
      typeof v === 'string' ||
      (typeof v === 'number' && Number.isFinite(v))
    )) {
      problems.push({
        field: path,
        code: 'not_a_scalar',
        message: 'A property value must be a string, number, boolean or null.',
      });
    } else if (typeof v === 'string' && v.length > MAX_PROPERTY_STRING) {
      problems.push({
        field: path,
        code: 'value_too_long',
        message: `A property value may have at most ${MAX_PROPERTY_STRING} characters.`,
      });
    }
  }
  return problems;
}

/** What every field rule sees: the input, the page as it is (null: create), the state so far. */
export interface InputContext {
  input: PageInput & { ownerId?: string | null };
  current: PageState | null;
  actor: AuthUser;
  now: Date;
  /** The resolved state; starts as the current page (update) or the defaults (create). */
  state: PageState;
  problems: FieldProblem[];
  /** The page being updated (a deprecated target must be another page). */
  currentPageId?: string;
  tx?: Tx;
}

export type FieldRule = (ctx: InputContext) => void | Promise<void>;

/** The state an absent field resolves to: the current value (update) or the default (create). */
export function initialState(current: PageState | null, actor: AuthUser): PageState {
  if (current) return { ...current };
  return {
    slug: '',
    title: '',
    content: '',
    icon: null,
    language: null,
    tags: [],
    lifecycle: 'published',
    // A new page belongs to whoever creates it (or imports it) unless the input names an owner.
    ownerId: actor.id,
    reviewIntervalDays: null,
    nextReviewAt: null,
    groups: [],
    deprecatedTarget: null,
    properties: {},
    variables: {},
    verified: false,
  };
}

function add(ctx: InputContext, field: string, code: string, message: string): void {
  ctx.problems.push({ field, code, message });
}

/** A trimmed optional text: null when absent, null or blank. */
function optionalText(value: string | null | undefined): string | null {
  return value === null || value === undefined || value.trim() === '' ? null : value.trim();
}

export const slugRule: FieldRule = (ctx) => {
  if (ctx.input.slug === undefined && ctx.current) return;
  ctx.state.slug = normaliseSlugField(ctx.input.slug ?? '');
  if (ctx.state.slug !== ctx.current?.slug)
    ctx.problems.push(...slugProblems(ctx.state.slug, 'slug', true));
};

export const titleRule: FieldRule = (ctx) => {
  if (ctx.input.title === undefined && ctx.current) return;
  const title = (ctx.input.title ?? '').trim();
  ctx.state.title = title;
  if (title === '') add(ctx, 'title', 'title_required', 'A title is required.');
  else if (length(title) > MAX_TITLE_LENGTH)
    add(
      ctx,
      'title',
      'title_too_long',
      `The title may have at most ${MAX_TITLE_LENGTH} characters.`,
    );
  else if (CONTROL.test(title))
    add(ctx, 'title', 'invalid_title', 'The title must not contain control characters.');
};

export const iconRule: FieldRule = (ctx) => {
  if (ctx.input.icon === undefined) return;
  const icon = optionalText(ctx.input.icon);
  ctx.state.icon = icon;
  if (icon !== null && (length(icon) > 64 || CONTROL.test(icon)))
    add(ctx, 'icon', 'invalid_icon', 'The icon is at most 64 characters.');
};

export const languageRule: FieldRule = (ctx) => {
  if (ctx.input.language === undefined) return;
  const language = optionalText(ctx.input.language);
  ctx.state.language = language;
  if (language !== null && (language.length > 35 || !LANGUAGE.test(language)))
    add(
      ctx,
      'language',
      'invalid_language',
      'The language must be a BCP 47 tag such as "en" or "de-CH".',
    );
};

export const tagsRule: FieldRule = (ctx) => {
  if (ctx.input.tags === undefined) return;
  ctx.state.tags = normaliseTags(ctx.input.tags ?? [], ctx.problems);
};

export const lifecycleRule: FieldRule = (ctx) => {
  const lifecycle = ctx.input.lifecycle;
  if (lifecycle === undefined) return;
  if (lifecycle === null || !LIFECYCLES.includes(lifecycle))
    add(ctx, 'lifecycle', 'invalid_lifecycle', `One of ${LIFECYCLES.join(', ')}.`);
  else ctx.state.lifecycle = lifecycle;
};

export const reviewIntervalRule: FieldRule = (ctx) => {
  const days = ctx.input.reviewIntervalDays;
  if (days === undefined) return;
  ctx.state.reviewIntervalDays = days;
  if (days !== null && (!Number.isInteger(days) || days < 1 || days > 3650))
    add(ctx, 'reviewIntervalDays', 'out_of_range', 'The review interval is 1 to 3650 days.');
};

/** After reviewIntervalRule: a new interval without an explicit date starts counting now. */
export const nextReviewRule: FieldRule = (ctx) => {
  const { input, state, current } = ctx;
  if (input.nextReviewAt !== undefined) {
    state.nextReviewAt = null;
    if (input.nextReviewAt === null) return;
    const parsed = parseIsoDate(input.nextReviewAt);
    if (!parsed) add(ctx, 'nextReviewAt', 'invalid_date', `nextReviewAt must be ${DATE_RULE}.`);
    else state.nextReviewAt = parsed;
  } else if (
    state.reviewIntervalDays !== null &&
    (state.reviewIntervalDays !== (current?.reviewIntervalDays ?? null) ||
      state.nextReviewAt === null)
  ) {
    state.nextReviewAt = new Date(ctx.now.getTime() + state.reviewIntervalDays * DAY_MS);
  }
};

export const propertiesRule: FieldRule = (ctx) => {
  if (ctx.input.properties === undefined) return;
  ctx.problems.push(...propertyProblems(ctx.input.properties ?? {}));
  ctx.state.properties = (ctx.input.properties ?? {}) as Record<string, PropertyValue>;
};

export const variablesRule: FieldRule = (ctx) => {
  if (ctx.input.variables === undefined) return;
  ctx.problems.push(...variableProblems(ctx.input.variables ?? {}));
  ctx.state.variables = ctx.input.variables ?? {};
};

export const verifiedRule: FieldRule = (ctx) => {
  if (ctx.input.verified !== undefined && ctx.input.verified !== null)
    ctx.state.verified = ctx.input.verified;
};
