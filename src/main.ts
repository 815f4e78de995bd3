import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.factory';
import { installGracefulShutdown } from './common/health/graceful-shutdown';
import { UsersService } from './auth/users.service';
import { runPrimary } from './common/cluster/cluster-primary';
import { reportReady } from './common/cluster/cluster-worker';
import { JsonLogger } from './common/logging/json-logger';
import { AppConfig, ConfigError, loadConfig } from './common/config/app-config';
import {
  DatabaseSetupError,
  describeDatabase,
  prepareDatabase,
} from './common/database/database-preflight';

/** EX_CONFIG: a setting must change before kb can start; restarting alone will not help. */
const EXIT_CONFIG = 78;

/** Where to point a browser: KB_PUBLIC_URL, else this machine at the port kb listens on. */
function openUrl(config: AppConfig, port: number): string {
  if (config.http.publicUrl) return config.http.publicUrl;
  const wildcard = ['0.0.0.0', '::', ''].includes(config.http.host);
  const host = wildcard
    ? 'localhost'
    : config.http.host.includes(':')
      ? `[${config.http.host}]`
      : config.http.host;
  return `http://${host}:${port}`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await prepareDatabase(config);
  if (config.workers.processes > 1 && cluster.isPrimary) {
    // KB_WORKERS: this process only forks and serves the HTTP workers (docs/deploy.md).
    process.exitCode = await runPrimary(config.workers.processes, new JsonLogger(config.log.level));
    return;
  }
  const app = await createApp(config);
  const logger = new Logger('Main');
  if (database === 'created')
    logger.log({
      msg: 'created the database (DB_CREATE=true)',
      database: describeDatabase(config),
    });
  await app.get(UsersService).ensureBootstrapAdmin();
  // Longer than a load balancer's idle timeout (often 60 s), so it never reuses a closed socket.
  const server = app.getHttpServer();
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  installGracefulShutdown(app, config, logger);
  await app.listen(config.http.port, config.http.host);
  const { port } = server.address() as AddressInfo;
  const url = openUrl(config, port);
  const ready = {
    msg: `kb is ready: open ${url} and sign in`,
    url: `${url}/`,
    listening: `${config.http.host}:${port}`,
    database: describeDatabase(config),
    pdfExport: config.pdf.serviceUrl
      ? `on, through ${config.pdf.serviceUrl}`
      : 'off: PDF routes answer 503 until PDF_SERVICE_URL is set (docs/export.md)',
  };
  // In a cluster the primary writes the start line once every worker listens.
  if (cluster.isWorker) reportReady(ready);
  else logger.log(ready);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseSetupError) {
    console.error(error.message);
    process.exit(EXIT_CONFIG);
  }
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
