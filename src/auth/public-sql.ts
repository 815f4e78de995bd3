/**
 * The SQL fragments auth lends to other modules' statements (usernames, groups), pure so that
 * store functions may use them in a worker thread; its Nest surface is public-api.ts.
 */
export { userSql } from './store/user-sql';
export type { UserRef } from './store/user-sql';
