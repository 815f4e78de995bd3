/** A field problem of a 422 (or 400 invalid_type) answer; `field` is a JSON path. */
export interface FieldError {
  field: string;
  code: string;
  message: string;
}

interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/**
 * An API answer that was not a success, as the problem document (RFC 9457) kb sends. Thrown by
 * every API call, so components show `detail` and field problems instead of guessing.
 */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  readonly body: ProblemBody;
  readonly retryAfterSeconds: number | null;

  constructor(status: number, body: ProblemBody, retryAfter: string | null = null) {
    super(body.detail ?? body.title ?? `The server answered ${status}.`);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = body.code ?? `http_${status}`;
    this.errors = Array.isArray(body.errors) ? body.errors : [];
    this.body = body;
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null;
  }

  /** Field problems for `field` and its members (`variables` takes `variables.x`). */
  errorsFor(field: string): FieldError[] {
    return this.errors.filter((e) => e.field === field || e.field.startsWith(`${field}.`));
  }

  static async fromResponse(response: Response, parsed?: unknown): Promise<ApiProblem> {
    let body: ProblemBody = {};
    if (parsed && typeof parsed === 'object') body = parsed as ProblemBody;
    else {
      try {
        body = (await response.clone().json()) as ProblemBody;
      } catch {
        body = { detail: response.statusText || `The server answered ${response.status}.` };
      }
    }
    return new ApiProblem(response.status, body, response.headers.get('Retry-After'));
  }
}

export function isProblem(error: unknown, ...statuses: number[]): error is ApiProblem {
  return error instanceof ApiProblem && (statuses.length === 0 || statuses.includes(error.status));
}

/** Words a person understands for an error of any kind. */
export function describeError(error: unknown): string {
  if (error instanceof ApiProblem) return error.message;
  if (error instanceof TypeError)
    return 'kb could not be reached. Check the connection and try again.';
  return error instanceof Error ? error.message : 'Something went wrong.';
}
