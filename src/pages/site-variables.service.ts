import { Injectable } from '@nestjs/common';
import type { Tx } from '../common/database/database';
import { FieldProblems } from '../common/problems/problem';
import { SiteVariablesRepository } from './store/site-variables.repository';
import type { PageRecord } from './model/page-columns';
import { mergeVariables, referencedVariableNames, variableProblems } from './model/variables';

export interface SiteVariables {
  version: number;
  values: Record<string, string>;
}

/**
 * Site-wide variables every page inherits. A version number grows with each change; the
 * values of the latest version read are kept in memory, so a page read whose stored HTML is
 * current needs no variable query, and other instances notice a change by the version.
 */
@Injectable()
export class SiteVariablesService {
  private cached: SiteVariables | null = null;

  constructor(private readonly variables: SiteVariablesRepository) {}

  currentVersion(tx?: Tx): Promise<number> {
    return this.variables.version(tx);
  }

  /** The values at `version` (read the version first, then the values: never newer-looking than they are). */
  async get(tx?: Tx, knownVersion?: number): Promise<SiteVariables> {
    const version = knownVersion ?? (await this.currentVersion(tx));
    if (this.cached && this.cached.version === version) return this.cached;
    const result = { version, values: await this.variables.values(tx) };
    if (!tx) this.cached = result;
    return result;
  }

  /**
   * Sets the given site-wide variables inside the caller's transaction and keeps the others
   * (the import of kb archives restores the archive's site variables this way). Invalid names
   * or values: FieldProblems under `field`. The cache follows the version after the commit.
   */
  async mergeWithin(
    tx: Tx,
    values: Record<string, string>,
    field = 'siteVariables',
  ): Promise<void> {
    const problems = variableProblems(values, field);
    if (problems.length > 0) throw new FieldProblems(problems);
    await this.variables.merge(values, tx);
  }

  /** Replaces every site-wide variable; pages re-render lazily as their HTML version is now stale. */
  async replace(values: Record<string, string>): Promise<SiteVariables> {
    const problems = variableProblems(values);
    if (problems.length > 0) throw new FieldProblems(problems);
    const version = await this.variables.replace(values);
    this.cached = { version, values: { ...values } };
    return this.cached;
  }

  /** CONTRACTS: saved values, site-wide overridden by the page's own. */
  async resolveVariables(page: Pick<PageRecord, 'variables'>): Promise<Record<string, string>> {
    const site = await this.get();
    return mergeVariables(site.values, page.variables);
  }

  /** CONTRACTS: names defined for the page or site-wide AND referenced by its content. */
  async usableVariableNames(page: Pick<PageRecord, 'variables' | 'content'>): Promise<string[]> {
    const defined = await this.resolveVariables(page);
    return referencedVariableNames(page.content).filter((name) =>
      Object.prototype.hasOwnProperty.call(defined, name),
    );
  }
}
