import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/ports';

const root = join(__dirname, '..', '..');
const NGINX = '/usr/sbin/nginx';

/**
 * Waits until `check` passes; fails at once, with `why()`, when `child` exits first (a port it
 * cannot bind, a bad configuration) instead of waiting out the minute.
 */
async function until(
  what: string,
  check: () => Promise<boolean>,
  child: ChildProcess,
  why: () => string,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}):\n${why()}`);
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
  if (!existsSync(NGINX))
    throw new Error(`${NGINX} is missing: install Debian's nginx (.ci/run does)`);
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
  const child = spawn(NGINX, ['-p', dir, '-c', confPath, '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  const errorLog = join(dir, 'nginx-error.log');
  await until(
    'nginx',
    async () => (await fetch(`${url}/healthz`)).status === 200,
    child,
    () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8').trim() : '(no error log)'),
  );
  return { url, stop: () => stopChild(child) };
}
