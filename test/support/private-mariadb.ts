import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
  port: number;
  url: (database: string) => string;
  /** Runs one statement as root (no database selected). */
  query: (statement: string) => Promise<unknown>;
  /**
   * Makes this server a replica of `primary` (started with `binlog`) from its first event, with
   * MariaDB's own replication (CHANGE MASTER TO … / START SLAVE), and waits until it runs.
   */
  replicate: (primary: PrivateMariaDb) => Promise<void>;
  start: () => Promise<void>;
  stop: () => Promise<void>;
  /** kill -9: the server dies mid-statement, mid-commit (InnoDB recovers at the next start). */
  kill: () => Promise<void>;
  destroy: () => Promise<void>;
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface PrivateMariaDbOptions {
  /** A replication primary: binary log on (ROW), with this server id. */
  binlog?: boolean;
  /** The server id (distinct per server of one replication setup). */
  serverId?: number;
  /** More mariadbd options (e.g. `--max-connections=300`). */
  extraArgs?: string[];
}

export async function createPrivateMariaDb(
  options: PrivateMariaDbOptions = {},
): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'kb-mariadb-'));
  const datadir = join(dir, 'data');
  // Its own temp folder: the server's temporary tables must not meet other processes' in /tmp.
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  await run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${datadir}`,
    `--tmpdir=${tmp}`,
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

  const query = async (statement: string) => {
    const connection = await createConnection({ host: '127.0.0.1', port, user: 'root' });
    try {
      return (await connection.query(statement))[0];
    } finally {
      await connection.end();
    }
  };

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };

  const db: PrivateMariaDb = {
    port,
    url: (database) => `mysql://root@127.0.0.1:${port}/${database}`,
    query,
    replicate: async (primary) => {
      await query(
        `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, ` +
          "MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos",
      );
      await query('START SLAVE');
      for (let i = 0; i < 300; i++) {
        const [status] = (await query('SHOW SLAVE STATUS')) as Record<string, string>[];
        if (status?.Slave_IO_Running === 'Yes' && status.Slave_SQL_Running === 'Yes') return;
        if (status?.Last_IO_Error || status?.Last_SQL_Error)
          throw new Error(`replication failed: ${status.Last_IO_Error || status.Last_SQL_Error}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('replication did not start');
    },
    start: async () => {
      child = spawn(
        'mariadbd',
        [
          '--no-defaults',
          '--user=root',
          `--datadir=${datadir}`,
          `--tmpdir=${tmp}`,
          `--port=${port}`,
          '--bind-address=127.0.0.1',
          `--socket=${join(dir, 'mariadb.sock')}`,
          '--skip-grant-tables',
          '--innodb-buffer-pool-size=16M',
          ...(options.binlog
            ? ['--log-bin=mariadb-bin', '--binlog-format=ROW']
            : ['--skip-log-bin']),
          `--server-id=${options.serverId ?? 1}`,
          ...(options.extraArgs ?? []),
        ],
        { stdio: 'ignore' },
      );
      await ready();
    },
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    destroy: async () => {
      await db.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return db;
}
