import { Injectable } from '@nestjs/common';
import { GroupsService } from '../../auth/public-api';
import { AuthUser, isAdmin } from '../../common/auth/auth-user';
import type { Tx } from '../../common/database/database';
import { audit } from '../../common/logging/audit';
import { ConflictProblem, FieldProblem, FieldProblems } from '../../common/problems/problem';
import { normaliseSlugField, slugProblems } from '../model/slug';
import { ProtectedPathRow, ProtectedPathsRepository } from './protected-paths.repository';

/** A rule as the API names it: `GET`/`PUT /api/protected-paths`. */
export interface ProtectedPath {
  prefix: string;
  approvals: number;
  groups: string[];
  users: string[];
}

/** The most approvals a rule may ask for, and the most rules. */
export const MAX_RULE_APPROVALS = 20;
export const MAX_PROTECTED_PATHS = 200;

/** Whether `slug` is the prefix itself or under it (`docs` covers `docs` and `docs/a`). */
export function underPrefix(slug: string, prefix: string): boolean {
  return slug === prefix || slug.startsWith(`${prefix}/`);
}

function toRule(row: ProtectedPathRow): ProtectedPath {
  return { prefix: row.prefix, approvals: row.approvals, groups: row.groups, users: row.users };
}

/**
 * Protected paths (issue 31): under a protected prefix editors change pages only through a
 * change request; administrators may write directly, and each such write is audited.
 */
@Injectable()
export class ProtectedPathsService {
  constructor(
    private readonly rules: ProtectedPathsRepository,
    private readonly groups: GroupsService,
  ) {}

  async list(tx?: Tx): Promise<ProtectedPath[]> {
    return (await this.rules.list(tx)).map(toRule);
  }

  /** The rules covering any of `slugs`. */
  async covering(slugs: string[], tx?: Tx): Promise<ProtectedPath[]> {
    const all = await this.list(tx);
    return all.filter((rule) => slugs.some((slug) => underPrefix(slug, rule.prefix)));
  }

  /** PUT: validates the whole list (422 with every problem) and replaces the rules. */
  async replace(input: ProtectedPath[], actor: AuthUser): Promise<ProtectedPath[]> {
    const problems: FieldProblem[] = [];
    if (input.length > MAX_PROTECTED_PATHS)
      problems.push({
        field: 'rules',
        code: 'too_many_rules',
        message: `At most ${MAX_PROTECTED_PATHS} protected paths.`,
      });
    const seen = new Set<string>();
    const rules = input.map((rule, i) => {
      const prefix = normaliseSlugField(rule.prefix);
      for (const p of slugProblems(prefix, `${i}.prefix`, false)) problems.push(p);
      if (seen.has(prefix))
        problems.push({ field: `${i}.prefix`, code: 'duplicate_prefix', message: 'Named twice.' });
      seen.add(prefix);
      return {
        prefix,
        approvals: rule.approvals,
        groups: [...new Set(rule.groups)],
        users: [...new Set(rule.users)],
      };
    });
    const named = [...new Set(rules.flatMap((r) => r.groups))];
    const known = new Set((await this.groups.findNamed(named)).map((g) => g.name));
    rules.forEach((rule, i) => {
      for (const group of rule.groups)
        if (!known.has(group))
          problems.push({
            field: `${i}.groups`,
            code: 'unknown_group',
            message: `No group named "${group}".`,
          });
    });
    if (problems.length > 0) throw new FieldProblems(problems);
    const now = new Date();
    await this.rules.replace(rules.map((rule) => ({ ...rule, updatedAt: now })));
    audit('protected_paths.replaced', {
      actorId: actor.id,
      target: 'protected_paths',
      prefixes: rules.map((r) => r.prefix),
    });
    return this.list();
  }

  /**
   * A direct write (not a change request's merge) touching `slugs`: refused for everyone but
   * administrators when a rule covers one of them (409 `change_request_required`, naming where
   * to propose instead); an administrator's write goes through and is audited.
   */
  async checkDirectWrite(slugs: string[], actor: AuthUser, tx?: Tx): Promise<void> {
    const covering = await this.covering(slugs, tx);
    if (covering.length === 0) return;
    if (isAdmin(actor)) {
      audit('protected_path.bypassed', {
        actorId: actor.id,
        target: `slug:${slugs[0]}`,
        slugs,
        prefixes: covering.map((r) => r.prefix),
      });
      return;
    }
    const prefix = covering[0].prefix;
    throw new ConflictProblem(
      'change_request_required',
      `Pages under "${prefix}" change through a change request; propose your changes instead.`,
      { prefix, propose: '/api/change-requests', consoleUrl: '/change-requests/new' },
    );
  }
}
