import { placeholders, Row } from '../../common/database/sql';

/** A user as another module's rows show it (an uploader, an actor). */
export interface UserRef {
  id: string;
  username: string;
  displayName: string;
}

/**
 * SQL fragments over the identity tables for other modules' statements, so a list of pages or
 * notifications gets its usernames and visibility in the same statement while the names of
 * auth's tables stay in auth's code. Pure, so store functions may use them in a worker thread.
 */
export const userSql = {
  /**
   * The username of the user whose id is in `userIdColumn` (or `?`, a parameter); NULL when
   * there is none.
   */
  username: (userIdColumn: string): string =>
    `(SELECT su.username FROM users su WHERE su.id = ${userIdColumn})`,

  /** The display name of the user whose id is in `userIdColumn`; NULL when there is none. */
  displayName: (userIdColumn: string): string =>
    `(SELECT su.display_name FROM users su WHERE su.id = ${userIdColumn})`,

  /** The groups as a derived table with columns `id` and `name` (`FROM ${userSql.groups} g`). */
  groups: '(SELECT sg.id, sg.name FROM access_groups sg)',

  /** A subquery of the ids of the groups named by `count` `?` parameters (the names). */
  groupIdsNamed: (count: number): string =>
    `SELECT sg.id FROM access_groups sg WHERE sg.name IN (${placeholders(count)})`,

  /** `, <username> AS <as>_username, <display name> AS <as>_display_name` for a SELECT list. */
  refColumns: (userIdColumn: string, as: string): string =>
    `, ${userSql.username(userIdColumn)} AS ${as}_username, ` +
    `${userSql.displayName(userIdColumn)} AS ${as}_display_name`,

  /** The user selected with `refColumns`, or null when there is none (or it is gone). */
  readRef: (userId: string | null, row: Row, as: string): UserRef | null => {
    const username = row[`${as}_username`];
    if (userId === null || typeof username !== 'string') return null;
    return { id: userId, username, displayName: String(row[`${as}_display_name`] ?? '') };
  },
};
