import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createConnection } from 'mysql2/promise';
import { freePort } from './ports';

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

export interface PrivateMariaDbOptions {
  /** A replication primary: binary log on (ROW), with this server id. */
  binlog?: boolean;
  /** The server id (distinct per server of one replication setup). */
  serverId?: number;
  /** More mariadbd options (e.g. `--max-connections=300`). */
  extraArgs?: string[];
  /** A port of the caller's choice (tests of this helper); otherwise a free one (ports.ts). */
  port?: number;
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
  const port = options.port ?? (await freePort());
  const serverId = options.serverId ?? 1;
  const errorLog = join(dir, 'error.log');
  let child: ChildProcess | undefined;

  const logTail = () =>
    existsSync(errorLog)
      ? readFileSync(errorLog, 'utf8').trim().split('\n').slice(-15).join('\n')
      : '(no error log)';

  /**
   * Waits until the server started here answers on its port. Fails at once, with the end of its
   * error log, when the process exits (a port it cannot bind, a bad option), and when what
   * answers on the port is another server (another test's, or this test's other server).
   */
  const ready = async (started: ChildProcess) => {
    let exited = false;
    const onExit = () => (exited = true);
    started.once('exit', onExit);
    try {
      for (let i = 0; i < 300; i++) {
        if (exited || started.exitCode !== null || started.signalCode !== null)
          throw new Error(
            `private mariadbd on port ${port} exited (${started.exitCode ?? started.signalCode}) ` +
              `before it answered:\n${logTail()}`,
          );
        const identity = await whoAnswers();
        if (identity) {
          if (identity.serverId === serverId && identity.port === port && !exited) return;
          throw new Error(
            `port ${port} is answered by another server (server_id ${identity.serverId}, ` +
              `port ${identity.port}), not the private mariadbd started with server_id ` +
              `${serverId}:\n${logTail()}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`private mariadbd on port ${port} did not answer in 30 s:\n${logTail()}`);
    } finally {
      started.off('exit', onExit);
    }
  };

  /** `@@server_id` and `@@port` of the server answering on the port, or null if none does. */
  const whoAnswers = async (): Promise<{ serverId: number; port: number } | null> => {
    let connection;
    try {
      connection = await createConnection({
        host: '127.0.0.1',
        port,
        user: 'root',
        connectTimeout: 2000,
      });
    } catch {
      return null;
    }
    try {
      const [rows] = await connection.query('SELECT @@server_id AS id, @@port AS port');
      const [row] = rows as { id: number | string; port: number | string }[];
      return { serverId: Number(row.id), port: Number(row.port) };
    } finally {
      await connection.end().catch(() => undefined);
    }
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
          `--log-error=${errorLog}`,
          '--innodb-buffer-pool-size=16M',
          ...(options.binlog
            ? ['--log-bin=mariadb-bin', '--binlog-format=ROW']
            : ['--skip-log-bin']),
          `--server-id=${serverId}`,
          ...(options.extraArgs ?? []),
        ],
        { stdio: 'ignore' },
      );
      const started = child;
      try {
        await ready(started);
      } catch (error) {
        if (started.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
        child = undefined;
        throw error;
      }
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
