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

const UNSUPPORTED_ENCODING = {
  status: 415,
  code: 'unsupported_encoding',
  detail: 'The request body encoding is not supported.',
};

/** body-parser's error types and the problem each answers with. */
const PARSER_PROBLEMS = new Map<string, Pick<ResolvedProblem, 'status' | 'code' | 'detail'>>([
  [
    'entity.parse.failed',
    { status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON.' },
  ],
  [
    'entity.too.large',
    {
      status: 413,
      code: 'payload_too_large',
      detail: 'The request body is larger than this route accepts.',
    },
  ],
  ['encoding.unsupported', UNSUPPORTED_ENCODING],
  ['charset.unsupported', UNSUPPORTED_ENCODING],
  [
    'request.aborted',
    { status: 400, code: 'request_aborted', detail: 'The request was aborted by the client.' },
  ],
]);

function problem(
  status: number,
  code: string,
  detail: string,
  unexpected = false,
): ResolvedProblem {
  return { status, code, detail, extensions: {}, headers: {}, unexpected };
}

/** Maps any thrown value to the problem it should answer with. */
export function resolveProblem(error: unknown, req: Request): ResolvedProblem {
  if (error instanceof Problem) {
    return {
      status: error.status,
      code: error.code,
      detail: error.detail,
      extensions: error.extensions,
      headers: error.headers,
      unexpected: false,
    };
  }
  const database = databaseProblem(error);
  if (database) return resolveProblem(database, req);
  const parser = bodyParserProblem((error ?? {}) as ParserError);
  if (parser) return parser;
  if (error instanceof HttpException) return httpExceptionProblem(error, req);
  return problem(
    500,
    'internal_error',
    'Something went wrong on our side. Quote the request id when you report it.',
    true,
  );
}

function bodyParserProblem(error: ParserError): ResolvedProblem | undefined {
  const known = error.type === undefined ? undefined : PARSER_PROBLEMS.get(error.type);
  if (known) return problem(known.status, known.code, known.detail);
  if (isDecompressionError(error)) {
    return problem(
      400,
      'invalid_content_encoding',
      'The request body does not decompress as its Content-Encoding says.',
    );
  }
  return undefined;
}

/** Nest's own exceptions (and the pipe's): their status, with a code named after it. */
function httpExceptionProblem(error: HttpException, req: Request): ResolvedProblem {
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
    return problem(status, 'route_not_found', `No route answers ${req.method} ${req.path}.`);
  }
  const detail = Array.isArray(message)
    ? message.join('; ')
    : typeof message === 'string'
      ? message
      : error.message;
  return problem(status, STATUS_CODES[status] ?? 'error', detail, status >= 500);
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
