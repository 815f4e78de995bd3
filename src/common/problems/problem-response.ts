import { HttpException, HttpStatus } from '@nestjs/common';
import type { Request, Response } from 'express';
import { databaseProblem } from '../database/database-errors';
import { noteProblemCode } from '../http/request-context';
import { Problem, ProblemBody, problemType, titleFor } from './problem';

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'validation_failed',
  429: 'too_many_requests',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/** Errors raised by body-parser carry these shapes. */
interface ParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  code?: string;
}

export interface ResolvedProblem {
  status: number;
  code: string;
  detail: string;
  extensions: Record<string, unknown>;
  headers: Record<string, string>;
  /** True when the error is not one we raised on purpose: it is logged with its stack. */
  unexpected: boolean;
}

/** zlib's (gzip, deflate) and brotli's errors on a corrupt stream, as body-parser passes them on. */
function isDecompressionError(error: ParserError): boolean {
  const code = error.code ?? '';
  return /^(Z_|ERR__|ERR_(BROTLI|ZLIB|ZSTD)_)/.test(code);
}

/** Maps any thrown value to the problem it should answer with. */
export function resolveProblem(error: unknown, req: Request): ResolvedProblem {
  const base = { extensions: {}, headers: {}, unexpected: false };
  if (error instanceof Problem) {
    return {
      ...base,
      status: error.status,
      code: error.code,
      detail: error.detail,
      extensions: error.extensions,
      headers: error.headers,
    };
  }
  const database = databaseProblem(error);
  if (database) return resolveProblem(database, req);
  const parser = (error ?? {}) as ParserError;
  switch (parser.type) {
    case 'entity.parse.failed':
      return {
        ...base,
        status: 400,
        code: 'invalid_json',
        detail: 'The request body is not valid JSON.',
      };
    case 'entity.too.large':
      return {
        ...base,
        status: 413,
        code: 'payload_too_large',
        detail: 'The request body is larger than this route accepts.',
      };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return {
        ...base,
        status: 415,
        code: 'unsupported_encoding',
        detail: 'The request body encoding is not supported.',
      };
    case 'request.aborted':
      return {
        ...base,
        status: 400,
        code: 'request_aborted',
        detail: 'The request was aborted by the client.',
      };
  }
  if (isDecompressionError(parser)) {
    return {
      ...base,
      status: 400,
      code: 'invalid_content_encoding',
      detail: 'The request body does not decompress as its Content-Encoding says.',
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const response = error.getResponse();
    const message =
      typeof response === 'string' ? response : (response as { message?: unknown }).message;
    // Nest's router answers an unmatched path with NotFoundException("Cannot GET /x").
    if (
      status === HttpStatus.NOT_FOUND &&
      typeof message === 'string' &&
      message.startsWith(`Cannot ${req.method} `)
    ) {
      return {
        ...base,
        status,
        code: 'route_not_found',
        detail: `No route answers ${req.method} ${req.path}.`,
      };
    }
    const detail = Array.isArray(message)
      ? message.join('; ')
      : typeof message === 'string'
        ? message
        : error.message;
    return {
      ...base,
      status,
      code: STATUS_CODES[status] ?? 'error',
      detail,
      unexpected: status >= 500,
    };
  }
  return {
    ...base,
    status: 500,
    code: 'internal_error',
    detail: 'Something went wrong on our side. Quote the request id when you report it.',
    unexpected: true,
  };
}

/** Builds the RFC 9457 body for a resolved problem. */
export function buildProblemBody(problem: ResolvedProblem, req: Request): ProblemBody {
  return {
    type: problemType(problem.code),
    title: titleFor(problem.status),
    status: problem.status,
    detail: problem.detail,
    instance: req.originalUrl?.split('?')[0] ?? req.url,
    code: problem.code,
    ...problem.extensions,
    requestId: (req as Request & { id?: string }).id,
  };
}

export function sendProblem(res: Response, problem: ResolvedProblem, body: ProblemBody): void {
  noteProblemCode(res, problem.code);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  // Don't let a download's headers leak onto an error answer.
  res.removeHeader('Content-Disposition');
  res.removeHeader('ETag');
  res
    .status(problem.status)
    .type('application/problem+json; charset=utf-8')
    .send(JSON.stringify(body));
}
