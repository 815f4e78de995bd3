import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { buildProblemBody, resolveProblem, sendProblem } from './problem-response';

const logger = new Logger('Problem');

function respond(error: unknown, req: Request, res: Response): void {
  const problem = resolveProblem(error, req);
  const body = buildProblemBody(problem, req);
  if (problem.unexpected) {
    const stack = error instanceof Error ? error.stack : String(error);
    logger.error({ msg: 'unhandled error', requestId: body.requestId, path: body.instance, stack });
  }
  sendProblem(res, problem, body);
}

/** The one global filter: every error becomes application/problem+json. */
@Catch()
export class ProblemFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    respond(error, http.getRequest<Request>(), http.getResponse<Response>());
  }
}

/**
 * Express error middleware for errors raised before Nest's router (body parsers):
 * they never reach Nest filters, so they are turned into problems here.
 */
export function problemErrorMiddleware(
  error: unknown,
  req: Request,
  res: Response,
  _next: NextFunction,
): void {
  respond(error, req, res);
}
