import { Inject, Injectable } from '@nestjs/common';
import { GroupsService } from '../auth/groups.service';
import { UsersService } from '../auth/users.service';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import type { Tx } from '../common/database/database';
import { DATE_RULE, parseIsoDate } from '../common/dates/iso-date';
import { FieldProblem, FieldProblems, PayloadTooLargeProblem } from '../common/problems/problem';
import { LIFECYCLES, Lifecycle, PropertyValue } from './store/page-columns';
import { PageAccessService } from './page-access.service';
import type { PageFieldsDto } from './dto/page.dto';
import type { PageState } from './page-state';
import { PagesRepository } from './store/pages.repository';
import { normaliseSlugField, slugProblems } from './slug';
import { variableProblems } from './variables';

export { stateOf } from './page-state';
export type { PageState } from './page-state';

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

/**
 * Turns request fields into a complete PageState: absent fields keep the current value
 * (updates) or take the default (create); every violation is collected into one 422.
 */
@Injectable()
export class PageInputService {
  constructor(
    private readonly groups: GroupsService,
    private readonly users: UsersService,
    private readonly access: PageAccessService,
    private readonly pages: PagesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  assertContentSize(content: string): void {
    if (Buffer.byteLength(content, 'utf8') > this.config.pageMaxBytes) {
      throw new PayloadTooLargeProblem(
        'page_too_large',
        `Page content may be at most ${this.config.pageMaxBytes} bytes.`,
        {
          limit: this.config.pageMaxBytes,
        },
      );
    }
  }

  /**
   * @param current the page's current state (update) or null (create)
   * @param owner how `owner` is given: a username (API) or already an id (import)
   */
  async resolve(
    input: PageInput & { ownerId?: string | null },
    actor: AuthUser,
    current: PageState | null,
    tx: Tx | undefined,
    options: { currentPageId?: string; now?: Date } = {},
  ): Promise<PageState> {
    const problems: FieldProblem[] = [];
    const now = options.now ?? new Date();
    const add = (field: string, code: string, message: string) =>
      problems.push({ field, code, message });

    let slug = current?.slug ?? '';
    if (input.slug !== undefined || !current) {
      slug = normaliseSlugField(input.slug ?? '');
      if (slug !== current?.slug) problems.push(...slugProblems(slug, 'slug', true));
    }

    let title = current?.title ?? '';
    if (input.title !== undefined || !current) {
      title = (input.title ?? '').trim();
      if (title === '') add('title', 'title_required', 'A title is required.');
      else if (length(title) > MAX_TITLE_LENGTH)
        add(
          'title',
          'title_too_long',
          `The title may have at most ${MAX_TITLE_LENGTH} characters.`,
        );
      else if (CONTROL.test(title))
        add('title', 'invalid_title', 'The title must not contain control characters.');
    }

    const content = input.content === undefined ? (current?.content ?? '') : (input.content ?? '');
    this.assertContentSize(content);

    let icon = current?.icon ?? null;
    if (input.icon !== undefined) {
      icon = input.icon === null || input.icon.trim() === '' ? null : input.icon.trim();
      if (icon !== null && (length(icon) > 64 || CONTROL.test(icon)))
        add('icon', 'invalid_icon', 'The icon is at most 64 characters.');
    }

    let language = current?.language ?? null;
    if (input.language !== undefined) {
      language =
        input.language === null || input.language.trim() === '' ? null : input.language.trim();
      if (language !== null && (language.length > 35 || !LANGUAGE.test(language))) {
        add(
          'language',
          'invalid_language',
          'The language must be a BCP 47 tag such as "en" or "de-CH".',
        );
      }
    }

    const tags =
      input.tags === undefined ? (current?.tags ?? []) : normaliseTags(input.tags ?? [], problems);

    let lifecycle: Lifecycle = current?.lifecycle ?? 'published';
    if (input.lifecycle !== undefined) {
      if (input.lifecycle === null || !LIFECYCLES.includes(input.lifecycle))
        add('lifecycle', 'invalid_lifecycle', `One of ${LIFECYCLES.join(', ')}.`);
      else lifecycle = input.lifecycle;
    }

    // A new page belongs to whoever creates it (or imports it) unless the input names an owner
    // (or null: nobody); an update keeps the owner it does not change.
    let ownerId = current ? current.ownerId : actor.id;
    if (input.ownerId !== undefined) {
      ownerId = input.ownerId;
      if (
        ownerId !== null &&
        ownerId !== current?.ownerId &&
        !(await this.users.findActiveById(ownerId))
      ) {
        add('ownerId', 'unknown_user', 'No active user with this id.');
      }
    } else if (input.owner !== undefined) {
      if (input.owner === null || input.owner.trim() === '') {
        ownerId = null;
      } else {
        const user = await this.users.findActiveByUsername(input.owner.trim());
        if (!user) add('owner', 'unknown_user', `No active user named "${input.owner.trim()}".`);
        else ownerId = user.id;
      }
    }

    let reviewIntervalDays = current?.reviewIntervalDays ?? null;
    if (input.reviewIntervalDays !== undefined) {
      reviewIntervalDays = input.reviewIntervalDays;
      if (
        reviewIntervalDays !== null &&
        (!Number.isInteger(reviewIntervalDays) ||
          reviewIntervalDays < 1 ||
          reviewIntervalDays > 3650)
      ) {
        add('reviewIntervalDays', 'out_of_range', 'The review interval is 1 to 3650 days.');
      }
    }

    let nextReviewAt = current?.nextReviewAt ?? null;
    if (input.nextReviewAt !== undefined) {
      nextReviewAt = null;
      if (input.nextReviewAt !== null) {
        const parsed = parseIsoDate(input.nextReviewAt);
        if (!parsed) add('nextReviewAt', 'invalid_date', `nextReviewAt must be ${DATE_RULE}.`);
        else nextReviewAt = parsed;
      }
    } else if (
      reviewIntervalDays !== null &&
      (reviewIntervalDays !== (current?.reviewIntervalDays ?? null) || nextReviewAt === null)
    ) {
      // A new review interval without an explicit date starts counting now.
      nextReviewAt = new Date(now.getTime() + reviewIntervalDays * DAY_MS);
    }

    let groups = current?.groups ?? [];
    if (input.groups !== undefined) {
      const names = input.groups ?? [];
      try {
        groups = (await this.groups.resolveNames(names))
          .map((g) => ({ id: g.id, name: g.name }))
          .sort((a, b) => a.name.localeCompare(b.name));
      } catch (error) {
        if (error instanceof FieldProblems) problems.push(...error.errors);
        else throw error;
      }
      if (!isAdmin(actor)) {
        const before = new Set((current?.groups ?? []).map((g) => g.name));
        names.forEach((raw, index) => {
          const name = raw.trim().toLowerCase();
          if (
            !before.has(name) &&
            !actor.groups.includes(name) &&
            !problems.some((p) => p.field === `groups[${index}]`)
          ) {
            add(
              `groups[${index}]`,
              'group_not_assignable',
              `You may only assign groups you belong to ("${name}").`,
            );
          }
        });
        // Nobody but an admin may lock themselves out of a page they are editing.
        const kept = names.map((n) => n.trim().toLowerCase());
        if (
          kept.length > 0 &&
          !kept.some((name) => actor.groups.includes(name)) &&
          !problems.some((p) => p.field.startsWith('groups'))
        ) {
          add(
            'groups',
            'would_lose_access',
            'Keep at least one of your own groups, or no group at all.',
          );
        }
      }
    }

    let deprecatedTarget = current?.deprecatedTarget ?? null;
    if (
      input.deprecatedTarget !== undefined &&
      !(await this.keepsHiddenTarget(input.deprecatedTarget, current, actor, tx))
    ) {
      deprecatedTarget =
        input.deprecatedTarget === null || input.deprecatedTarget.trim() === ''
          ? null
          : normaliseSlugField(input.deprecatedTarget);
      const targetProblems =
        deprecatedTarget === null ? [] : slugProblems(deprecatedTarget, 'deprecatedTarget', false);
      problems.push(...targetProblems);
      if (
        deprecatedTarget !== null &&
        targetProblems.length === 0 &&
        deprecatedTarget !== current?.deprecatedTarget
      ) {
        const target = await this.pages.findLive(deprecatedTarget, tx);
        if (
          !target ||
          !this.access.canSee(target, actor) ||
          target.id === options.currentPageId ||
          deprecatedTarget === slug
        ) {
          add('deprecatedTarget', 'unknown_page', 'deprecatedTarget must name another live page.');
        }
      }
    }

    let properties = current?.properties ?? {};
    if (input.properties !== undefined) {
      const found = propertyProblems(input.properties ?? {});
      problems.push(...found);
      properties = (input.properties ?? {}) as Record<string, PropertyValue>;
    }

    let variables = current?.variables ?? {};
    if (input.variables !== undefined) {
      problems.push(...variableProblems(input.variables ?? {}));
      variables = input.variables ?? {};
    }

    const verified =
      input.verified === undefined || input.verified === null
        ? (current?.verified ?? false)
        : input.verified;

    if (problems.length > 0) throw new FieldProblems(problems);
    return {
      slug,
      title,
      content,
      icon,
      language,
      tags,
      lifecycle,
      ownerId,
      reviewIntervalDays,
      nextReviewAt,
      groups,
      deprecatedTarget,
      properties,
      variables,
      verified,
    };
  }

  /**
   * Whether an empty `deprecatedTarget` in the body leaves the stored one as it is: when it
   * names a live page `actor` cannot see, a read showed them null (visibleDeprecatedTarget), so
   * the null they send back (a whole body PUT back) says nothing about it and must not clear
   * it. A target that is no live page any more was shown as null to everybody: null clears it.
   */
  private async keepsHiddenTarget(
    sent: string | null,
    current: PageState | null,
    actor: AuthUser,
    tx: Tx | undefined,
  ): Promise<boolean> {
    if (!current?.deprecatedTarget || (sent !== null && sent.trim() !== '')) return false;
    const target = await this.pages.findLive(current.deprecatedTarget, tx);
    return target !== null && !this.access.canSee(target, actor);
  }
}
