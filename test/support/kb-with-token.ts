import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningKb, startKb } from './kb-process';
import { createTestDatabase, TestDatabase } from './mysql-databases';
import { DB_TYPE } from './test-app';

/** A kb process of its own, an administrator's API token for it and a scratch folder. */
export interface KbWithToken {
  kb: RunningKb;
  token: string;
  /** A temporary folder for the test's files (kb's data folder is `data` inside it). */
  work: string;
  /** Stops kb, drops its MariaDB database and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Starts kb as a separate process (on a database of its own under DB_TYPE=mysql), signs the
 * bootstrap administrator in and makes a personal access token named `ci`.
 */
export async function startKbWithToken(name: string): Promise<KbWithToken> {
  const password = `${name}-password`;
  const work = mkdtempSync(join(tmpdir(), `kb-${name}-`));
  let database: TestDatabase | undefined;
  let kb: RunningKb | undefined;
  const stop = async () => {
    await kb?.stop();
    await database?.drop();
    rmSync(work, { recursive: true, force: true });
  };
  try {
    if (DB_TYPE === 'mysql') database = await createTestDatabase();
    kb = await startKb({
      KB_DATA_DIR: join(work, 'data'),
      PASSWORD_HASH_COST: 'fast',
      KB_ADMIN_PASSWORD: password,
      ...(database ? { DB_TYPE: 'mysql', DATABASE_URL: database.url } : {}),
    });
    const login = await fetch(`${kb.url}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password }),
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const created = await fetch(`${kb.url}/api/tokens`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Cookie: cookie,
        'Sec-Fetch-Site': 'same-origin',
      },
      body: JSON.stringify({ name: 'ci' }),
    });
    const { token } = (await created.json()) as { token: string };
    return { kb, token, work, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Writes `files` (path → content) below `root`, making folders; answers `root`. */
export function writeFolder(root: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}
