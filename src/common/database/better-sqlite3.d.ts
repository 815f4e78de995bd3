// better-sqlite3 ships no types (and @types/better-sqlite3 is not installed): the part kb uses.
declare module 'better-sqlite3' {
  interface Statement {
    readonly reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  }
  interface Connection {
    prepare(sql: string): Statement;
    pragma(sql: string): unknown;
    close(): void;
  }
  const Database: new (
    filename: string,
    options?: { readonly?: boolean; fileMustExist?: boolean; timeout?: number },
  ) => Connection;
  export default Database;
}
