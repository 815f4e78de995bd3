import { Injectable } from '@nestjs/common';
import { Database } from '../../../common/database/database';

/** The one door to `search_synonyms`: sets of words that mean the same, in order. */
@Injectable()
export class SynonymsRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<string[][]> {
    const rows = await this.db
      .sql()
      .all<{ terms: string }>('SELECT terms FROM search_synonyms ORDER BY position');
    return rows.map((row) => JSON.parse(row.terms) as string[]);
  }

  /** Replaces every set at once (all or nothing). */
  async replace(sets: string[][]): Promise<void> {
    await this.db.transaction(async ({ sql }) => {
      await sql.run('DELETE FROM search_synonyms');
      for (const [position, terms] of sets.entries()) {
        await sql.run('INSERT INTO search_synonyms (position, terms) VALUES (?, ?)', [
          position,
          JSON.stringify(terms),
        ]);
      }
    });
  }
}
