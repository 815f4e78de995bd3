import { AsyncLocalStorage } from 'node:async_hooks';

/** What a request tells the database about where its lag-tolerant reads may go. */
export interface ReadContext {
  /** The signed-in user whose own writes must stay visible to them (read-your-writes). */
  userId?: string;
  /** A write request: every read of it goes to the primary. */
  primary: boolean;
}

/** The current request's ReadContext (none outside requests: background work). */
export const readContext = new AsyncLocalStorage<ReadContext>();
