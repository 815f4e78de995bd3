import { HttpStatus } from '@nestjs/common';

/** One entry of a 422 problem's `errors` list: `field` is a JSON path such as `variables.name`. */
export interface FieldProblem {
  field: string;
  code: string;
  message: string;
}

/** The RFC 9457 body every error under /api, /auth and /export answers with. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: string;
  requestId?: string;
  errors?: FieldProblem[];
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function titleFor(status: number): string {
  return TITLES[status] ?? 'Error';
}

export function problemType(code: string): string {
  return `urn:kb:problem:${code}`;
}

/**
 * A domain error with a stable machine code. Services throw these (or the subclasses below);
 * the global filter turns them into problem documents.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** Extra members merged into the body (e.g. `errors`, `slugs`). */
    readonly extensions: Record<string, unknown> = {},
    /** Extra response headers (e.g. `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class BadRequestProblem extends Problem {
  constructor(code: string, detail: string, extensions?: Record<string, unknown>) {
    super(HttpStatus.BAD_REQUEST, code, detail, extensions);
  }
}

/** RFC 9110 wants a challenge on every 401; "Bearer" never makes a browser show a login dialog. */
export class UnauthorizedProblem extends Problem {
  constructor(code = 'unauthenticated', detail = 'Sign in or send a valid bearer token.') {
    super(HttpStatus.UNAUTHORIZED, code, detail, {}, { 'WWW-Authenticate': 'Bearer realm="kb"' });
  }
}

export class ForbiddenProblem extends Problem {
  constructor(code = 'forbidden', detail = 'You are not allowed to do this.') {
    super(HttpStatus.FORBIDDEN, code, detail);
  }
}

/** Missing and invisible look the same: the detail never says which. */
export class NotFoundProblem extends Problem {
  constructor(resource: string, detail?: string) {
    super(
      HttpStatus.NOT_FOUND,
      `${resource}_not_found`,
      detail ?? `No such ${resource.replace(/_/g, ' ')}.`,
    );
  }
}

export class ConflictProblem extends Problem {
  constructor(code: string, detail: string, extensions?: Record<string, unknown>) {
    super(HttpStatus.CONFLICT, code, detail, extensions);
  }
}

export class PreconditionFailedProblem extends Problem {
  constructor(code: string, detail: string, extensions?: Record<string, unknown>) {
    super(HttpStatus.PRECONDITION_FAILED, code, detail, extensions);
  }
}

export class PayloadTooLargeProblem extends Problem {
  constructor(code: string, detail: string, extensions?: Record<string, unknown>) {
    super(HttpStatus.PAYLOAD_TOO_LARGE, code, detail, extensions);
  }
}

export class UnsupportedMediaTypeProblem extends Problem {
  constructor(code: string, detail: string) {
    super(HttpStatus.UNSUPPORTED_MEDIA_TYPE, code, detail);
  }
}

export class TooManyRequestsProblem extends Problem {
  constructor(code: string, detail: string, retryAfterSeconds: number) {
    super(
      HttpStatus.TOO_MANY_REQUESTS,
      code,
      detail,
      {},
      {
        'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))),
      },
    );
  }
}

/** A problem lists at most this many field problems; `moreErrors` counts the rest. */
export const MAX_FIELD_PROBLEMS = 100;

/** The `errors` extension: the first MAX_FIELD_PROBLEMS entries and the count of the rest. */
function errorsExtension(errors: FieldProblem[]): Record<string, unknown> {
  if (errors.length <= MAX_FIELD_PROBLEMS) return { errors };
  return {
    errors: errors.slice(0, MAX_FIELD_PROBLEMS),
    moreErrors: errors.length - MAX_FIELD_PROBLEMS,
  };
}

/** 422 with one entry per bad field (the first 100; `moreErrors` counts the rest). */
export class FieldProblems extends Problem {
  constructor(
    readonly errors: FieldProblem[],
    detail = 'Some fields are invalid.',
    moreErrors = 0,
  ) {
    const extensions = errorsExtension(errors);
    if (moreErrors > 0)
      extensions.moreErrors = ((extensions.moreErrors as number) ?? 0) + moreErrors;
    super(HttpStatus.UNPROCESSABLE_ENTITY, 'validation_failed', detail, extensions);
  }
}

/**
 * 400 `invalid_type`: request members of the wrong JSON type (a number for a string, a string
 * for an array...), one entry per bad member. Malformed syntax, unlike the 422 rules above.
 */
export class InvalidTypeProblem extends Problem {
  constructor(
    readonly errors: FieldProblem[],
    detail = 'Some fields have the wrong JSON type.',
  ) {
    super(HttpStatus.BAD_REQUEST, 'invalid_type', detail, errorsExtension(errors));
  }
}

/** Shorthand for a single-field 422. */
export function fieldProblem(field: string, code: string, message: string): FieldProblems {
  return new FieldProblems([{ field, code, message }]);
}

export class UpstreamProblem extends Problem {
  constructor(
    status: 502 | 503 | 504,
    code: string,
    detail: string,
    headers: Record<string, string> = {},
  ) {
    super(status, code, detail, {}, headers);
  }
}
