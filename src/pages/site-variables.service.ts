import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { FieldProblems } from '../common/problems/problem';
import { SiteVariableEntity, SiteVariableStateEntity } from './entities/site-variable.entity';
import { inTransaction } from './page-transaction';
import { variableProblems } from './variables';

export interface SiteVariables {
  version: number;
  values: Record<string, string>;
}

/** One more site-variables version (the single state row is created by the first change). */
async function bumpVersion(manager: EntityManager): Promise<void> {
  const updated = await manager
    .createQueryBuilder()
    .update(SiteVariableStateEntity)
    .set({ version: () => 'version + 1' })
    .where('id = 1')
    .execute();
  if (!updated.affected) await manager.insert(SiteVariableStateEntity, { id: 1, version: 1 });
}

/**
 * Site-wide variables every page inherits. A version number grows with each change; the
 * values of the latest version read are kept in memory, so a page read whose stored HTML is
 * current needs no variable query, and other instances notice a change by the version.
 */
@Injectable()
export class SiteVariablesService {
  private cached: SiteVariables | null = null;

  constructor(private readonly dataSource: DataSource) {}

  async currentVersion(manager: EntityManager = this.dataSource.manager): Promise<number> {
    const state = await manager.findOneBy(SiteVariableStateEntity, { id: 1 });
    return state?.version ?? 0;
  }

  /** The values at `version` (read the version first, then the values: never newer-looking than they are). */
  async get(
    manager: EntityManager = this.dataSource.manager,
    knownVersion?: number,
  ): Promise<SiteVariables> {
    const version = knownVersion ?? (await this.currentVersion(manager));
    if (this.cached && this.cached.version === version) return this.cached;
    const rows = await manager.find(SiteVariableEntity, { order: { name: 'ASC' } });
    const values: Record<string, string> = {};
    for (const row of rows) values[row.name] = row.value;
    const result = { version, values };
    if (manager === this.dataSource.manager) this.cached = result;
    return result;
  }

  /**
   * Sets the given site-wide variables inside the caller's transaction and keeps the others
   * (the import of kb archives restores the archive's site variables this way). Invalid names
   * or values: FieldProblems under `field`. The cache follows the version after the commit.
   */
  async mergeWithin(
    manager: EntityManager,
    values: Record<string, string>,
    field = 'siteVariables',
  ): Promise<void> {
    const problems = variableProblems(values, field);
    if (problems.length > 0) throw new FieldProblems(problems);
    const names = Object.keys(values);
    if (names.length === 0) return;
    await manager
      .createQueryBuilder()
      .delete()
      .from(SiteVariableEntity)
      .where('name IN (:...names)', { names })
      .execute();
    await manager.insert(
      SiteVariableEntity,
      names.map((name) => ({ name, value: values[name] })),
    );
    await bumpVersion(manager);
  }

  /** Replaces every site-wide variable; pages re-render lazily as their HTML version is now stale. */
  async replace(values: Record<string, string>): Promise<SiteVariables> {
    const problems = variableProblems(values);
    if (problems.length > 0) throw new FieldProblems(problems);
    const result = await inTransaction(this.dataSource, async (manager) => {
      await manager.createQueryBuilder().delete().from(SiteVariableEntity).execute();
      const rows = Object.entries(values).map(([name, value]) => ({ name, value }));
      if (rows.length > 0) await manager.insert(SiteVariableEntity, rows);
      await bumpVersion(manager);
      const version = await this.currentVersion(manager);
      return { version, values: Object.fromEntries(rows.map((r) => [r.name, r.value])) };
    });
    this.cached = result;
    return result;
  }
}
