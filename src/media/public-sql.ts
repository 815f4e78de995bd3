import { placeholders } from '../common/database/sql';

/**
 * SQL fragments over the media table for other modules' statements (as auth's userSql), so the
 * name and columns of media's table stay in media's code. Pure: store functions may use them in
 * a worker thread.
 */
export const mediaSql = {
  /** `SELECT id` of the stored media among `count` ids given as `?` parameters. */
  storedIds: (count: number): string => `SELECT id FROM media WHERE id IN (${placeholders(count)})`,
};
