/**
 * Whether a database error is a unique-key (or primary-key) violation: MySQL/MariaDB
 * `ER_DUP_ENTRY`, better-sqlite3 `SQLITE_CONSTRAINT_UNIQUE` / `_PRIMARYKEY`, or SQLite's
 * "UNIQUE constraint failed" message (TypeORM's QueryFailedError carries the driver's code
 * and message). Other constraint failures (NOT NULL, foreign key, check) are not.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null | undefined;
  return (
    e?.code === 'ER_DUP_ENTRY' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    /UNIQUE constraint/i.test(e?.message ?? '')
  );
}
