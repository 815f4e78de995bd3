import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { withTypeScript } from '../support/kb-process';
import {
  createTestDatabase,
  databaseUrl,
  dropLeftoverDatabases,
  MYSQL_SERVER_URL,
} from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';

const describeOnMysql = DB_TYPE === 'mysql' ? describe : describe.skip;

async function serverQuery<T extends RowDataPacket>(sql: string, params: unknown[] = []) {
  const connection = await createConnection(databaseUrl(MYSQL_SERVER_URL, ''));
  try {
    return (await connection.query<T[]>(sql, params))[0];
  } finally {
    await connection.end();
  }
}

const exists = async (name: string) =>
  (await serverQuery('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [name]))
    .length === 1;

/** Another process makes a test database and is then killed, as a crashed jest worker is. */
async function databaseOfACrashedProcess(): Promise<string> {
  const helper = join(__dirname, '..', 'support', 'mysql-databases.ts');
  const child = spawn(
    process.execPath,
    [
      '-e',
      withTypeScript(
        `require(${JSON.stringify(helper)}).createTestDatabase().then((db) => console.log(db.name)); setInterval(() => {}, 1000);`,
      ),
    ],
    { env: { PATH: process.env.PATH ?? '', MYSQL_TEST_URL: MYSQL_SERVER_URL } },
  );
  const name = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`helper exited with ${code}`)));
  });
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
  return name;
}

describeOnMysql('test databases on the shared MariaDB server', () => {
  it("drops those of crashed runs, never a live run's or another naming's", async () => {
    const crashed = await databaseOfACrashedProcess();
    expect(await exists(crashed)).toBe(true);
    const live = await createTestDatabase();
    // Another branch's run names its databases another way: not ours to judge.
    const foreign = `kbt_${process.pid}_feedbeef`;
    await serverQuery(`CREATE DATABASE IF NOT EXISTS \`${foreign}\``);
    try {
      const dropped = await dropLeftoverDatabases();
      expect(dropped).toContain(crashed);
      expect(dropped).not.toContain(live.name);
      expect(await exists(crashed)).toBe(false);
      expect(await exists(live.name)).toBe(true);
      expect(await exists(foreign)).toBe(true);
    } finally {
      await live.drop();
      await serverQuery(`DROP DATABASE IF EXISTS \`${foreign}\``);
    }
    expect(await exists(live.name)).toBe(false);
  }, 60_000);
});
