import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { runEntry, startKb } from '../support/kb-process';
import {
  createTestDatabase,
  databaseUrl,
  MYSQL_SERVER_URL,
  reserveTestDatabase,
  TestDatabase,
} from '../support/mysql-databases';
import { DB_TYPE } from '../support/test-app';

const describeOnMysql = DB_TYPE === 'mysql' ? describe : describe.skip;

async function databaseCharset(name: string): Promise<string | undefined> {
  const connection = await createConnection(databaseUrl(MYSQL_SERVER_URL, ''));
  try {
    const [rows] = await connection.query<RowDataPacket[]>(
      'SELECT default_character_set_name AS charset FROM information_schema.schemata WHERE schema_name = ?',
      [name],
    );
    return rows[0]?.charset as string | undefined;
  } finally {
    await connection.end();
  }
}

describe('start-up that explains itself', () => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'kb-startup-'));
  });
  afterEach(async () => {
    await database?.drop();
    database = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function databaseEnv(): Promise<Record<string, string>> {
    if (DB_TYPE === 'sqlite') return {};
    database = await createTestDatabase();
    return { DB_TYPE: 'mysql', DATABASE_URL: database.url };
  }

  it('says which URL to open, which database it uses and whether PDF export is on', async () => {
    const env = { KB_DATA_DIR: dataDir, PASSWORD_HASH_COST: 'fast', ...(await databaseEnv()) };
    const kb = await startKb({ ...env, HOST: '0.0.0.0' });
    try {
      const port = new URL(kb.url).port;
      expect(kb.readyLine).toMatchObject({
        level: 'info',
        context: 'Main',
        msg: `kb is ready: open http://localhost:${port} and sign in`,
        url: `http://localhost:${port}/`,
        database:
          DB_TYPE === 'sqlite'
            ? `sqlite ${join(dataDir, 'kb.sqlite')}`
            : `mysql mysql://root@127.0.0.1:3306/${database!.name}`,
        pdfExport: expect.stringMatching(/^off: .*PDF_SERVICE_URL/),
      });
      expect((await fetch(`${kb.url}/healthz`)).status).toBe(200);
      // Nest's own start-up lines stay at debug; the generated password is shown once.
      expect(kb.output()).not.toMatch(/"context":"(RouterExplorer|RoutesResolver|InstanceLoader)"/);
      expect(kb.output()).toMatch(/bootstrap administrator.*"password":"[^"]+"/);
    } finally {
      await kb.stop();
    }
    const withPdf = await startKb({ ...env, PDF_SERVICE_URL: 'http://127.0.0.1:9' });
    try {
      expect(withPdf.readyLine.pdfExport).toBe('on, through http://127.0.0.1:9');
    } finally {
      await withPdf.stop();
    }
  }, 120_000);

  describeOnMysql('a MySQL database that does not exist', () => {
    it('stops at once (exit 78) with the CREATE DATABASE line to run, which works', async () => {
      database = await reserveTestDatabase();
      const env = {
        KB_DATA_DIR: dataDir,
        DB_TYPE: 'mysql',
        DATABASE_URL: database.url,
        PASSWORD_HASH_COST: 'fast',
      };
      const refused = await runEntry('main', env);
      expect(refused.status).toBe(78);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(
        `kb: the MySQL database "${database.name}" does not exist on 127.0.0.1:3306.`,
      );
      expect(refused.stderr).toContain('DB_CREATE=true');
      // No connection retries: the only output is the explanation.
      expect(refused.stderr).not.toMatch(/Retrying|Unable to connect/);
      expect(await databaseCharset(database.name)).toBeUndefined();

      const statement = /^ {2}(CREATE DATABASE .*);$/m.exec(refused.stderr)![1];
      expect(statement).toBe(
        `CREATE DATABASE \`${database.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
      );
      const connection = await createConnection(databaseUrl(MYSQL_SERVER_URL, ''));
      await connection.query(statement);
      await connection.end();
      const kb = await startKb(env);
      await kb.stop();
    }, 120_000);

    it('creates it with DB_CREATE=true (utf8mb4) and starts', async () => {
      database = await reserveTestDatabase();
      const kb = await startKb({
        KB_DATA_DIR: dataDir,
        DB_TYPE: 'mysql',
        DATABASE_URL: database.url,
        DB_CREATE: 'true',
        PASSWORD_HASH_COST: 'fast',
      });
      try {
        expect(kb.output()).toContain(
          `"msg":"created the database (DB_CREATE=true)","database":"mysql mysql://root@127.0.0.1:3306/${database.name}"`,
        );
        expect(await databaseCharset(database.name)).toBe('utf8mb4');
        expect((await fetch(`${kb.url}/readyz`)).status).toBe(200);
      } finally {
        await kb.stop();
      }
    }, 120_000);

    it('stops (exit 78) when the server refuses the credentials', async () => {
      database = await createTestDatabase();
      const url = new URL(database.url);
      url.username = 'kb_no_such_user';
      url.password = 'wrong';
      const refused = await runEntry('main', {
        KB_DATA_DIR: dataDir,
        DB_TYPE: 'mysql',
        DATABASE_URL: url.toString(),
      });
      expect(refused.status).toBe(78);
      expect(refused.stderr).toContain('refused the credentials of DATABASE_URL');
      expect(refused.stderr).not.toContain('wrong');
    }, 120_000);
  });
});
