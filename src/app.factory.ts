import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module';
import { AppConfig } from './common/config/app-config';
import { mountJsonParsers } from './common/http/json-budget';
import { JsonBodyGuard, refuseEncodedBodies } from './common/http/json-body';
import { KbMetrics } from './common/metrics/kb-metrics';
import { RateLimitGuard } from './common/rate-limit/rate-limit.guard';
import { mountOpenApi } from './common/openapi/openapi-document';
import { requestContext } from './common/http/request-context';
import { securityHeaders } from './common/http/security-headers';
import { ShutdownState } from './common/health/shutdown-state';
import { clusterWorkerId } from './common/cluster/cluster-worker';
import { JsonLogger } from './common/logging/json-logger';
import { problemErrorMiddleware, ProblemFilter } from './common/problems/problem.filter';
import { createValidationPipe } from './common/problems/validation';
import { OAuthServer } from './auth/public-api';

/**
 * Builds the fully configured application: used by main.ts and by every e2e test, so tests run
 * the same pipes, filters, guards and body limits as production.
 */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const logger = new JsonLogger(config.log.level);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    logger,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app, config, logger);
  await app.init();
  return app;
}

function configureApp(app: NestExpressApplication, config: AppConfig, logger: JsonLogger): void {
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(app.get(KbMetrics).middleware());
  const worker = clusterWorkerId();
  if (worker !== undefined) {
    // KB_WORKERS > 1: which worker answered (its number, not its pid), for operators and tests.
    app.use((_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('X-Kb-Worker', String(worker));
      next();
    });
  }
  app.use(requestContext(logger));
  app.use(securityHeaders());
  app.use(cookieParser());
  // Browser export answers are private to one request (overrides): never cached, errors included.
  app.use('/export', (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'POST') res.setHeader('Cache-Control', 'private, no-store');
    next();
  });
  // The OAuth authorization server (/oauth/*, its metadata) reads its own bodies: before ours.
  app.use(app.get(OAuthServer).middleware());
  // JSON bodies: size, depth and member budgets per route, checked before parsing.
  mountJsonParsers(app, config.http.jsonBodyLimitBytes);
  app.use(refuseEncodedBodies);
  // Body-parser errors happen before Nest's router; this turns them into problems.
  app.use(problemErrorMiddleware);
  app.useGlobalFilters(new ProblemFilter());
  // After AuthGuard (APP_GUARD, installed when the app was created), in this order: the rate
  // limits of the caller it resolved (429), then 415 for a JSON route sent another media type.
  // Guards rather than global interceptors: Nest wraps a handler in RxJS and async-hook work per
  // global interceptor, a measurable part of a page read (docs/PERFORMANCE.md).
  app.useGlobalGuards(app.get(RateLimitGuard), new JsonBodyGuard());
  app.useGlobalPipes(createValidationPipe());
  // Responses while shutting down ask the client (the proxy) to open its next connection elsewhere.
  const shutdown = app.get(ShutdownState);
  app.use((_req: Request, res: Response, next: NextFunction) => {
    if (shutdown.draining) res.setHeader('Connection', 'close');
    next();
  });
  mountOpenApi(app as INestApplication);
}
