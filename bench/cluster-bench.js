'use strict';
// The cluster benchmark: 1, 2 and 3 kb instances behind nginx (deploy/nginx/kb.conf as shipped,
// ports and paths aside) on one MariaDB database, measuring page reads and a mixed workload
// through nginx at each size, so the scaling factor is measured on this machine, not claimed.
// The instances share one KB_DATA_DIR (local media store on a shared folder; the S3 store of
// docs/deploy.md is proven by test/cluster, not benchmarked). Run by bench/run.js
// (BENCH_ONLY=cluster runs it alone); needs nginx and a MariaDB at BENCH_MYSQL_URL.
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { measure } = require('./measure');
const { pageRead, pageUpdate } = require('./requests');
const { seedViaApi } = require('./seed');
const { bearerToken, startKb } = require('./server');

const ROOT = join(__dirname, '..');
const NGINX = '/usr/sbin/nginx';
const DATABASE = 'kb_bench_cluster';

/** nginx with kb.conf's upstream pointing at `ports`, listening on `port`; resolves once it answers. */
async function startNginx(dir, port, ports) {
  mkdirSync(dir, { recursive: true });
  const site = readFileSync(join(ROOT, 'deploy', 'nginx', 'kb.conf'), 'utf8')
    .replace(/^\s*server 127\.0\.0\.1:\d+ max_fails=0;\n/gm, '')
    .replace(
      'upstream kb {\n',
      `upstream kb {\n${ports.map((p) => `    server 127.0.0.1:${p} max_fails=0;\n`).join('')}`,
    )
    .replace('listen 80;', `listen 127.0.0.1:${port};`);
  const conf = join(dir, 'nginx.conf');
  const temp = (name) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(
    conf,
    `worker_processes auto;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'nginx-error.log')} warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 4096; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${site}
}`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-g', 'daemon off;'], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** The mixed workload of test/cluster per connection: read, search, update (If-Match), create. */
function mixedRequests(pages, corpus) {
  let created = 0;
  return [
    pageRead(pages.map((p) => p.slug)),
    { method: 'GET', path: `/api/search?q=${encodeURIComponent(corpus.word())}` },
    pageUpdate(pages, corpus),
    {
      method: 'POST',
      setupRequest: (req) => {
        created += 1;
        const slug = `cluster-bench/${process.pid}-${Date.now()}-${created}`;
        return {
          ...req,
          path: '/api/pages',
          headers: { ...req.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ slug, title: `Bench ${created}`, content: corpus.sentence() }),
        };
      },
    },
  ];
}

/**
 * Rows for the report: page reads and the mixed workload at 1, 2 and 3 instances, and the
 * scaling factors (3 instances over 1). `settings` is bench/run.js's SETTINGS.
 */
async function runClusterBench({ settings, corpus, workDir, mysqlUrl, log }) {
  if (!existsSync(NGINX)) {
    return [{ name: 'Cluster benchmark', value: 'skipped', ok: null, note: 'no nginx' }];
  }
  const { createConnection } = require(join(ROOT, 'node_modules', 'mysql2', 'promise'));
  const admin = await createConnection(mysqlUrl);
  const rows = [];
  try {
    await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await admin.query(
      `CREATE DATABASE \`${DATABASE}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`,
    );
    const dataDir = join(workDir, 'data');
    mkdirSync(dataDir, { recursive: true });
    const env = {
      DB_TYPE: 'mysql',
      DATABASE_URL: `${mysqlUrl.replace(/\/$/, '')}/${DATABASE}`,
      TRUST_PROXY: 'loopback',
    };
    const ports = [0, 1, 2].map((i) => settings.port + 10 + i);
    let pages;
    const results = {};
    for (const size of [1, 2, 3]) {
      log(`cluster: ${size} instance(s) behind nginx...`);
      const instances = [];
      for (const port of ports.slice(0, size))
        instances.push(await startKb({ port, dataDir, env }));
      const nginx = await startNginx(
        join(workDir, `nginx-${size}`),
        settings.port + 20,
        ports.slice(0, size),
      );
      try {
        // Through nginx, as a browser would: kb.conf passes the Host with its port, so the
        // Origin this script sends with its cookie matches.
        const token = await bearerToken(nginx.url);
        if (!pages) {
          log(`  seeding ${settings.clusterPages} pages...`);
          pages = await seedViaApi({ url: nginx.url, token, corpus, count: settings.clusterPages });
        }
        const run = (requests) =>
          measure({
            url: nginx.url,
            requests,
            headers: { authorization: `Bearer ${token}` },
            connections: settings.connections,
            duration: settings.duration,
            warmup: settings.warmup,
          });
        results[size] = {
          reads: await run([pageRead(pages.map((p) => p.slug))]),
          mixed: await run(mixedRequests(pages, corpus)),
        };
        for (const kind of ['reads', 'mixed']) {
          const r = results[size][kind];
          log(
            `  ${kind}: ${r.requestsPerSecond.toFixed(0)} req/s, p99 ${Math.round(r.p99)} ms, statuses ${JSON.stringify(r.statuses)}`,
          );
          rows.push({
            name: `Cluster ${kind === 'reads' ? 'GET /api/pages/{slug}' : 'mixed workload'}, ${size} instance(s) behind nginx (MariaDB)`,
            value: `${r.requestsPerSecond.toFixed(0)} req/s`,
            ok: r.errors === 0 && r.timeouts === 0,
            note: `p50 ${Math.round(r.p50)} ms, p99 ${Math.round(r.p99)} ms, statuses ${JSON.stringify(r.statuses)}, socket errors ${r.errors}, timeouts ${r.timeouts}`,
          });
        }
      } finally {
        await nginx.stop();
        await Promise.all(instances.map((kb) => kb.stop()));
      }
    }
    for (const kind of ['reads', 'mixed']) {
      const factor = results[3][kind].requestsPerSecond / results[1][kind].requestsPerSecond;
      rows.push({
        name: `Cluster scaling factor, ${kind === 'reads' ? 'page reads' : 'mixed workload'} (3 instances / 1)`,
        value: `${factor.toFixed(2)}×`,
        ok: null,
        note: 'on one machine: the instances, nginx and MariaDB share its cores',
      });
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS \`${DATABASE}\``);
    await admin.end();
  }
  return rows;
}

module.exports = { runClusterBench, startNginx };
