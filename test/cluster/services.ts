import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** Whether nothing listens on `port` (on 127.0.0.1 nor on every address). */
function portFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The kernel's ephemeral port range (`listen(0)` and outgoing connections draw from it). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux: the IANA dynamic range
  }
  return [49152, 65535];
}

/** Whether the kernel may hand `port` to any process's `listen(0)` (see freePort). */
export function inEphemeralRange(port: number): boolean {
  const [low, high] = ephemeralRange();
  return port >= low && port <= high;
}

const taken = new Set<number>();

/**
 * A free TCP port for a service of the deployment, chosen OUTSIDE the kernel's ephemeral range,
 * as the fixed ports of a real deployment are (3001-3003 in deploy/nginx/kb.conf). An instance
 * restarted in the rolling restart leaves its port unbound for the seconds it takes to start
 * again; a port from the ephemeral range can meanwhile be handed by the kernel to any other
 * process's `listen(0)` (on a shared machine: another test's short-lived kb server), and nginx
 * then sends this deployment's requests there (answered 401 invalid_token: that kb does not
 * know the token). Ports outside the range are never handed out that way.
 */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  // Above the well-known and common service ports, and outside the ephemeral range.
  const ranges = [
    [20_000, low - 1],
    [high + 1, 65_535],
  ].filter(([from, to]) => to - from >= 1000);
  if (ranges.length === 0) throw new Error(`no ports outside the ephemeral range ${low}-${high}`);
  const [from, to] = ranges.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a));
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (taken.has(port)) continue;
    if ((await portFree(port, '127.0.0.1')) && (await portFree(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${from} and ${to}`);
}

async function until(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not come up within ${ms / 1000} s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface Service {
  url: string;
  stop(): Promise<void>;
}

/**
 * nginx in front of the instances with deploy/nginx/kb.conf as shipped: only the upstream
 * ports and the listen port change, and the paths nginx writes go to `dir`.
 */
export async function startNginx(dir: string, upstreamPorts: number[]): Promise<Service> {
  const port = await freePort();
  const site = readFileSync(join(root, 'deploy', 'nginx', 'kb.conf'), 'utf8')
    .replace(/^\s*server 127\.0\.0\.1:\d+ max_fails=0;\n/gm, '')
    .replace(
      'upstream kb {\n',
      `upstream kb {\n${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=0;\n`).join('')}`,
    )
    .replace('listen 80;', `listen 127.0.0.1:${port};`)
    // For the proof's failure reports only: which instance answered.
    .replace(
      'proxy_buffering off;',
      'proxy_buffering off;\n        add_header X-Kb-Upstream $upstream_addr always;',
    );
  const conf = `
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 1024; }
http {
  access_log ${join(dir, 'nginx-access.log')};
  client_body_temp_path ${join(dir, 'nginx-body')};
  proxy_temp_path ${join(dir, 'nginx-proxy')};
  fastcgi_temp_path ${join(dir, 'nginx-fastcgi')};
  uwsgi_temp_path ${join(dir, 'nginx-uwsgi')};
  scgi_temp_path ${join(dir, 'nginx-scgi')};
  ${site}
}`;
  const confPath = join(dir, 'nginx.conf');
  writeFileSync(confPath, conf);
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', confPath, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  await until('nginx', async () => (await fetch(`${url}/healthz`)).status === 200);
  return { url, stop: () => stopChild(child) };
}
