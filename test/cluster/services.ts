import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
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
