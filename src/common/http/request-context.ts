import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { LoggerService } from '@nestjs/common';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,100}$/;

interface RequestScope {
  requestId: string;
}

/** The request being served, for code far from the controller (audit lines, upstream calls). */
const scope = new AsyncLocalStorage<RequestScope>();

/** The id of the request this code runs for, or undefined outside a request (CLI, timers). */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.requestId;
}

/** The problem `code` an error answer carried, for the request's log line. */
export function noteProblemCode(res: Response, code: string): void {
  res.locals.problemCode = code;
}

/**
 * Gives every request an id (kept from X-Request-Id when sane), echoes it, runs the rest of the
 * request inside its scope, and logs the outcome, with the problem `code` of an error answer.
 */
export function requestContext(logger: LoggerService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('x-request-id');
    const id = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.log(
        {
          msg: 'request',
          requestId: id,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          code: res.locals.problemCode as string | undefined,
          ms: Math.round(ms * 10) / 10,
          userId: (req as Request & { user?: { id: string } }).user?.id,
        },
        'HTTP',
      );
    });
    scope.run({ requestId: id }, next);
  };
}
