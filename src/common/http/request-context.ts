import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { LoggerService } from '@nestjs/common';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Gives every request an id (kept from X-Request-Id when sane), echoes it, and logs the outcome. */
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
          ms: Math.round(ms * 10) / 10,
          userId: (req as Request & { user?: { id: string } }).user?.id,
        },
        'HTTP',
      );
    });
    next();
  };
}
