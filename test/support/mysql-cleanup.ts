import { dropLeftoverDatabases, MYSQL_SERVER_URL } from './mysql-databases';

/**
 * Jest's globalSetup and globalTeardown for the MariaDB run: drops the test databases of runs
 * (or workers) that ended without dropping their own, e.g. after a crash; never those of runs
 * still going (see mysql-databases.ts).
 */
export default async function dropLeftovers(): Promise<void> {
  if ((process.env.DB_TYPE ?? 'sqlite') !== 'mysql') return;
  const dropped = await dropLeftoverDatabases();
  if (dropped.length > 0)
    process.stderr.write(
      `\nDropped ${dropped.length} test database(s) on ${new URL(MYSQL_SERVER_URL).host} left by runs that ended: ${dropped.join(', ')}\n`,
    );
}
