import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import type { AppConfig } from '../config/app-config';
import { ShutdownState } from './shutdown-state';

/**
 * SIGTERM (and SIGINT) end kb without failing a request:
 * 1. /readyz answers 503 at once; after SHUTDOWN_DELAY_SECONDS (for balancers that poll it)
 * 2. the listener closes, so new connections are refused and a proxy tries another instance;
 *    idle keep-alive connections close, busy ones close after their response;
 * 3. requests and streams in flight finish, up to SHUTDOWN_TIMEOUT_SECONDS, then the
 *    connections left are cut;
 * 4. the drain hooks run (work handed back), Nest closes (the database pool with it); exit 0.
 */
export function installGracefulShutdown(
  app: INestApplication,
  config: AppConfig,
  logger: LoggerService,
): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    shutdown(app, config, logger, signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ msg: 'shutdown failed', error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutdown(
  app: INestApplication,
  config: AppConfig,
  logger: LoggerService,
  signal: NodeJS.Signals,
): Promise<void> {
  const state = app.get(ShutdownState);
  state.startDraining();
  logger.log({ msg: `${signal}: shutting down, /readyz answers 503`, signal });
  if (config.http.shutdownDelaySeconds > 0) await sleep(config.http.shutdownDelaySeconds * 1000);

  const server = app.getHttpServer() as Server;
  const cut = await drainServer(server, config.http.shutdownTimeoutSeconds * 1000);
  if (cut) {
    logger.warn({ msg: 'shutdown deadline reached: connections still open were cut' });
  }
  await state.runHooks((name, error) =>
    logger.error({ msg: 'a drain hook failed', hook: name, error: String(error) }),
  );
  await app.close();
  logger.log({ msg: 'shut down: every request finished, the database pool is closed' });
}

/** How long a connection accepted just before the listener closed has to send its request. */
const IDLE_GRACE_MS = 1000;

/** Stops accepting and resolves once every connection has ended; true when the deadline cut some. */
function drainServer(server: Server, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let cut = false;
    let idle: NodeJS.Timeout | undefined;
    // Keep-alive connections that finish a response while draining become idle: close them,
    // after a grace period. Not at once: a connection accepted just before the listener closed
    // counts as idle until its request arrives, and a proxy that already sent a POST on it
    // could not retry it elsewhere.
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      idle = setInterval(() => server.closeIdleConnections(), 100);
    }, IDLE_GRACE_MS);
    const deadline = setTimeout(() => {
      cut = true;
      server.closeAllConnections();
    }, timeoutMs);
    // net.Server's close: stop accepting and wait for the connections, without http.Server's
    // immediate closeIdleConnections (Node 19+) and the race above.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      clearInterval(idle);
      clearTimeout(deadline);
      resolve(cut);
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
