import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';

/**
 * The credentials generation (`auth_generation`, one row): counted up in the same unit of work
 * as every change that can invalidate a resolved credential, read by every instance per
 * request before it trusts its credential cache.
 */
@Injectable()
export class AuthGenerationRepository {
  /** Bumps written by this process (committed, rolled back or still open). */
  private bumps = 0;
  /** The last generation read outside a transaction, with what it was read under (SQLite). */
  private known?: { dataVersion: number; bumps: number; generation: number };

  constructor(private readonly db: Database) {}

  /**
   * The committed generation. On SQLite the row is read again only when it can have changed:
   * another connection (instance, kb worker, CLI) committed since, which changes the
   * connection's `data_version`, or this process bumped it (its own commits leave
   * `data_version` as it is). Read inside a transaction, the row may hold the transaction's
   * uncommitted bump, so such a read is never kept.
   */
  async current(): Promise<number> {
    const sql = this.db.sql();
    const dataVersion = sql.dataVersion?.() ?? null;
    const bumps = this.bumps;
    const known = this.known;
    if (dataVersion !== null && known?.dataVersion === dataVersion && known.bumps === bumps)
      return known.generation;
    const [row] = await sql.all<{ generation: number | string }>(
      'SELECT generation FROM auth_generation WHERE id = 1',
    );
    const generation = Number(row?.generation ?? 0);
    // Kept only when nothing happened between the two reads (SQLite runs them synchronously,
    // but the await above lets other work run).
    if (dataVersion !== null && sql.dataVersion?.() === dataVersion && this.bumps === bumps)
      this.known = { dataVersion, bumps, generation };
    return generation;
  }

  /** Call inside the writing unit `t`, after the change itself. */
  async bump(t: Tx): Promise<void> {
    this.bumps++;
    await t.sql.run('UPDATE auth_generation SET generation = generation + 1 WHERE id = 1');
  }
}
