import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect';

/** How long an instance waits for another one's migrations before it gives up starting. */
export const MIGRATION_LOCK_SECONDS = 300;

/**
 * Runs the pending migrations. On MySQL/MariaDB several instances may start at once (an
 * upgrade of all of them): they take turns at a named lock of the server (GET_LOCK, per
 * database), so each migration runs once and the others find it recorded. The lock is held
 * by a connection of its own and freed by the server if this process dies. SQLite needs none:
 * one process migrates a file (KB_WORKERS' first worker starts alone).
 */
export async function runMigrations(dataSource: DataSource): Promise<void> {
  const transaction = dataSource.options.migrationsTransactionMode;
  if (dialectOf(dataSource.options.type).name !== 'mysql') {
    await dataSource.runMigrations({ transaction });
    return;
  }
  const runner = dataSource.createQueryRunner();
  try {
    const [{ database }] = (await runner.query('SELECT DATABASE() AS `database`')) as {
      database: string;
    }[];
    const lock = `kb-migrations:${database}`.slice(0, 64);
    const [{ got }] = (await runner.query('SELECT GET_LOCK(?, ?) AS got', [
      lock,
      MIGRATION_LOCK_SECONDS,
    ])) as { got: number | string | null }[];
    if (Number(got) !== 1)
      throw new Error(
        `Another kb instance has been running migrations on database "${database}" for ${MIGRATION_LOCK_SECONDS} s; not starting`,
      );
    try {
      await dataSource.runMigrations({ transaction });
    } finally {
      await runner.query('SELECT RELEASE_LOCK(?)', [lock]);
    }
  } finally {
    await runner.release();
  }
}
