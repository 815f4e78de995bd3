import { Injectable } from '@nestjs/common';
import { Database, Tx } from '../../common/database/database';

/**
 * The credentials generation (`auth_generation`, one row): counted up in the same unit of work
 * as every change that can invalidate a resolved credential, read by every instance per
 * request before it trusts its credential cache.
 */
@Injectable()
export class AuthGenerationRepository {
  constructor(private readonly db: Database) {}

  async current(): Promise<number> {
    const [row] = await this.db
      .sql()
      .all<{ generation: number | string }>('SELECT generation FROM auth_generation WHERE id = 1');
    return Number(row?.generation ?? 0);
  }

  /** Call inside the writing unit `t`, after the change itself. */
  async bump(t: Tx): Promise<void> {
    await t.sql.run('UPDATE auth_generation SET generation = generation + 1 WHERE id = 1');
  }
}
