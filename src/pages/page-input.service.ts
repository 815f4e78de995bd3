import { overLimitSentence } from '../common/text/byte-size';
import { Injectable } from '@nestjs/common';
import { GroupsService, UsersService } from '../auth/public-api';
import { AuthUser, isAdmin } from '../common/auth/auth-user';
import { InjectConfig } from '../common/config/app-config';
import type { PagesConfig } from '../common/config/pages-config';
import type { Tx } from '../common/database/database';
import { FieldProblems, PayloadTooLargeProblem } from '../common/problems/problem';
import { PageAccessService } from './page-access.service';
import {
  FieldRule,
  iconRule,
  initialState,
  InputContext,
  languageRule,
  lifecycleRule,
  nextReviewRule,
  PageInput,
  propertiesRule,
  reviewIntervalRule,
  slugRule,
  tagsRule,
  titleRule,
  variablesRule,
  verifiedRule,
} from './page-input-rules';
import type { PageState } from './model/page-state';
import { PagesRepository } from './store/pages.repository';
import { normaliseSlugField, slugProblems } from './model/slug';

export {
  MAX_PROPERTIES,
  MAX_PROPERTY_STRING,
  MAX_TAG_LENGTH,
  MAX_TAGS,
  MAX_TITLE_LENGTH,
  normaliseTags,
  propertyProblems,
} from './page-input-rules';
export type { PageInput } from './page-input-rules';
export { stateOf } from './model/page-state';
export type { PageState } from './model/page-state';

/**
 * Turns request fields into a complete PageState: absent fields keep the current value
 * (updates) or take the default (create); every violation is collected into one 422. Each
 * field has one small rule (page-input-rules.ts, or a method here when it asks the database),
 * run in the order of RULES.
 */
@Injectable()
export class PageInputService {
  private readonly rules: FieldRule[] = [
    slugRule,
    titleRule,
    (ctx) => this.contentRule(ctx),
    iconRule,
    languageRule,
    tagsRule,
    lifecycleRule,
    (ctx) => this.ownerRule(ctx),
    reviewIntervalRule,
    nextReviewRule,
    (ctx) => this.groupsRule(ctx),
    (ctx) => this.deprecatedTargetRule(ctx),
    propertiesRule,
    variablesRule,
    verifiedRule,
  ];

  constructor(
    private readonly groups: GroupsService,
    private readonly users: UsersService,
    private readonly access: PageAccessService,
    private readonly pages: PagesRepository,
    @InjectConfig('pages') private readonly pagesConfig: PagesConfig,
  ) {}

  assertContentSize(content: string): void {
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.pagesConfig.maxBytes) {
      throw new PayloadTooLargeProblem(
        'page_too_large',
        overLimitSentence('page', bytes, this.pagesConfig.maxBytes),
        { limit: this.pagesConfig.maxBytes },
      );
    }
  }

  /**
   * @param current the page's current state (update) or null (create)
   * @param input.ownerId the owner already as an id (import); `owner` is a username (API)
   */
  async resolve(
    input: PageInput & { ownerId?: string | null },
    actor: AuthUser,
    current: PageState | null,
    tx: Tx | undefined,
    options: { currentPageId?: string; now?: Date } = {},
  ): Promise<PageState> {
    const ctx: InputContext = {
      input,
      current,
      actor,
      now: options.now ?? new Date(),
      state: initialState(current, actor),
      problems: [],
      currentPageId: options.currentPageId,
      tx,
    };
    for (const rule of this.rules) await rule(ctx);
    if (ctx.problems.length > 0) throw new FieldProblems(ctx.problems);
    return ctx.state;
  }

  /** Too large content is a 413 at once, before the other problems are reported. */
  private contentRule({ input, current, state }: InputContext): void {
    state.content = input.content === undefined ? (current?.content ?? '') : (input.content ?? '');
    this.assertContentSize(state.content);
  }

  /** `ownerId` (import, an id), or `owner` (API, a username); null or blank: nobody. */
  private async ownerRule({ input, current, state, problems }: InputContext): Promise<void> {
    if (input.ownerId !== undefined) {
      state.ownerId = input.ownerId;
      if (
        input.ownerId !== null &&
        input.ownerId !== current?.ownerId &&
        !(await this.users.findActiveById(input.ownerId))
      ) {
        problems.push({
          field: 'ownerId',
          code: 'unknown_user',
          message: 'No active user with this id.',
        });
      }
    } else if (input.owner !== undefined) {
      const name = input.owner?.trim() ?? '';
      if (name === '') {
        state.ownerId = null;
        return;
      }
      const user = await this.users.findActiveByUsername(name);
      if (!user)
        problems.push({
          field: 'owner',
          code: 'unknown_user',
          message: `No active user named "${name}".`,
        });
      else state.ownerId = user.id;
    }
  }

  private async groupsRule(ctx: InputContext): Promise<void> {
    const { input, actor, current, problems } = ctx;
    if (input.groups === undefined) return;
    const names = input.groups ?? [];
    try {
      ctx.state.groups = (await this.groups.resolveNames(names))
        .map((g) => ({ id: g.id, name: g.name }))
        .sort((a, b) => a.name.localeCompare(b.name));
    } catch (error) {
      if (error instanceof FieldProblems) problems.push(...error.errors);
      else throw error;
    }
    if (isAdmin(actor)) return;
    const before = new Set((current?.groups ?? []).map((g) => g.name));
    names.forEach((raw, index) => {
      const name = raw.trim().toLowerCase();
      if (
        !before.has(name) &&
        !actor.groups.includes(name) &&
        !problems.some((p) => p.field === `groups[${index}]`)
      ) {
        problems.push({
          field: `groups[${index}]`,
          code: 'group_not_assignable',
          message: `You may only assign groups you belong to ("${name}").`,
        });
      }
    });
    // Nobody but an admin may lock themselves out of a page they are editing.
    const kept = names.map((n) => n.trim().toLowerCase());
    if (
      kept.length > 0 &&
      !kept.some((name) => actor.groups.includes(name)) &&
      !problems.some((p) => p.field.startsWith('groups'))
    ) {
      problems.push({
        field: 'groups',
        code: 'would_lose_access',
        message: 'Keep at least one of your own groups, or no group at all.',
      });
    }
  }

  /** After slugRule: the target must be another live page the actor may see. */
  private async deprecatedTargetRule(ctx: InputContext): Promise<void> {
    const { input, current, state, problems } = ctx;
    if (input.deprecatedTarget === undefined) return;
    if (await this.keepsHiddenTarget(input.deprecatedTarget, current, ctx.actor, ctx.tx)) return;
    const target =
      input.deprecatedTarget === null || input.deprecatedTarget.trim() === ''
        ? null
        : normaliseSlugField(input.deprecatedTarget);
    state.deprecatedTarget = target;
    if (target === null) return;
    const targetProblems = slugProblems(target, 'deprecatedTarget', false);
    problems.push(...targetProblems);
    if (targetProblems.length > 0 || target === current?.deprecatedTarget) return;
    const page = await this.pages.findLive(target, ctx.tx);
    if (
      !page ||
      !this.access.canSee(page, ctx.actor) ||
      page.id === ctx.currentPageId ||
      target === state.slug
    ) {
      problems.push({
        field: 'deprecatedTarget',
        code: 'unknown_page',
        message: 'deprecatedTarget must name another live page.',
      });
    }
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
