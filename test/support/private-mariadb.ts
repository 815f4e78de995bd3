import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';

const run = promisify(execFile);

/**
 * A mariadbd of this test's own (own datadir, own port, no grant tables): a test that needs a
 * database to go away stops this one, never the shared server.
 */
export interface PrivateMariaDb {
  url: (database: string) => string;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  destroy: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function createPrivateMariaDb(): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'kb-mariadb-'));
  const datadir = join(dir, 'data');
  await run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${datadir}`,
    '--auth-root-authentication-method=normal',
    '--skip-test-db',
  ]);
  const port = await freePort();
  let child: ChildProcess | undefined;

  const ready = async () => {
    for (let i = 0; i < 300; i++) {
      try {
        const connection = await createConnection({ host: '127.0.0.1', port, user: 'root' });
        await connection.end();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error('private mariadbd did not start');
  };

  const db: PrivateMariaDb = {
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    start: async () => {
      child = spawn(
        'mariadbd',
        [
          '--no-defaults',
          '--user=root',
          `--datadir=${datadir}`,
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${join(dir, 'mariadb.sock')}`,
          '--skip-grant-tables',
          '--innodb-buffer-pool-size=16M',
          '--skip-log-bin',
        ],
        { stdio: 'ignore' },
      );
      await ready();
    },
    stop: async () => {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    destroy: async () => {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return db;
}
