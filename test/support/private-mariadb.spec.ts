import { createServer, Server } from 'node:net';
import { freePort, inEphemeralRange } from './ports';
import { createPrivateMariaDb, PrivateMariaDb } from './private-mariadb';

/**
 * The private mariadbd helper must notice a server that did not start: before this check, a
 * mariadbd that could not bind its port went unnoticed while another server answered there, and
 * a replica replicated from itself ("equal MariaDB server ids").
 */
describe('private mariadbd', () => {
  const servers: PrivateMariaDb[] = [];
  const listeners: Server[] = [];

  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.destroy()));
    await Promise.all(
      listeners.splice(0).map((l) => new Promise((resolve) => l.close(() => resolve(null)))),
    );
  });

  it('starts on a port outside the ephemeral range and answers as itself', async () => {
    const db = await createPrivateMariaDb({ serverId: 7 });
    servers.push(db);
    await db.start();
    const [row] = (await db.query('SELECT @@server_id AS id, @@port AS port')) as {
      id: number;
      port: number;
    }[];
    expect({ id: Number(row.id), port: Number(row.port) }).toEqual({ id: 7, port: db.port });
    expect(inEphemeralRange(db.port)).toBe(false);
  });

  it('fails its start with the reason when its port is taken by something else', async () => {
    const port = await freePort();
    const squatter = createServer((socket) => socket.destroy());
    await new Promise((resolve) => squatter.listen(port, '127.0.0.1', () => resolve(null)));
    listeners.push(squatter);
    const db = await createPrivateMariaDb({ port });
    servers.push(db);
    await expect(db.start()).rejects.toThrow(/exited[\s\S]*(Address already in use|Bind on)/);
  });

  it('fails its start when another mariadbd answers on its port', async () => {
    const first = await createPrivateMariaDb({ serverId: 1 });
    servers.push(first);
    await first.start();
    const second = await createPrivateMariaDb({ serverId: 2, port: first.port });
    servers.push(second);
    await expect(second.start()).rejects.toThrow(
      new RegExp(`port ${first.port} is answered by another server|exited`),
    );
    // The first server is untouched by the failed start.
    await expect(first.query('SELECT 1')).resolves.toBeDefined();
  });
});
