import type { ResponseObject, SchemaObject } from '@nestjs/swagger';
import type { AuthScheme } from '../auth/route-policy';
import { isUnsafeMethod } from '../http/origin';
import { headerRefs, ResponseHeaderName } from './response-headers';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const FIELD_PROBLEM: SchemaObject = {
  type: 'object',
  description: 'One bad field of a request.',
  required: ['field', 'code', 'message'],
  properties: {
    field: {
      type: 'string',
      description: 'JSON path of the field, such as `title`, `variables.customer_name` or `slug`.',
      example: 'slug',
    },
    code: { type: 'string', description: 'Stable machine code.', example: 'slug_taken' },
    message: { type: 'string', description: 'For people.' },
  },
};

const PROBLEM: SchemaObject = {
  type: 'object',
  description:
    'An RFC 9457 problem document. `code` is stable and meant for programs; `detail` is for people. ' +
    'Some problems add members, such as `currentRevision` (409/412 on a stale write), ' +
    '`slugs` and `hiddenReferences` (409 `media_in_use`) or `limit` (413).',
  required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
  properties: {
    type: { type: 'string', example: 'urn:kb:problem:page_not_found' },
    title: { type: 'string', example: 'Not Found' },
    status: { type: 'integer', minimum: 400, maximum: 599, example: 404 },
    detail: { type: 'string', example: 'No such page.' },
    instance: { type: 'string', description: 'The request path.', example: '/api/pages/a/b' },
    code: { type: 'string', example: 'page_not_found' },
    requestId: { type: 'string', description: 'Quote it when reporting a problem.' },
    errors: {
      type: 'array',
      description: 'The bad fields (400 `invalid_type`, 422): at most 100.',
      items: { $ref: '#/components/schemas/FieldProblem' },
    },
    moreErrors: {
      type: 'integer',
      minimum: 1,
      description: 'How many field problems were left out of `errors` (present only then).',
    },
  },
  additionalProperties: true,
};

/** The problem schemas every error response refers to. */
export const PROBLEM_SCHEMAS: Record<string, SchemaObject> = {
  FieldProblem: FIELD_PROBLEM,
  Problem: PROBLEM,
  ValidationProblem: {
    ...PROBLEM,
    description: 'A problem listing every bad field under `errors` (422 `validation_failed`).',
    required: [...(PROBLEM.required ?? []), 'errors'],
    properties: {
      ...PROBLEM.properties,
      errors: {
        type: 'array',
        minItems: 1,
        items: { $ref: '#/components/schemas/FieldProblem' },
      },
    },
  },
};

interface ErrorResponse {
  name: string;
  description: string;
  schema?: 'ValidationProblem';
  headers?: ResponseHeaderName[];
}

/** Each error status once, as components.responses; operations refer to them. */
const ERROR_RESPONSES: Record<number | 'default', ErrorResponse> = {
  400: {
    name: 'BadRequest',
    description:
      'Malformed request: a body that is not JSON (`invalid_json`), members of the wrong JSON type (`invalid_type`, listed under `errors`), a cursor this API did not issue (`invalid_cursor`), a JSON body nested deeper than the route allows (`json_too_deep`), a malformed header or multipart body.',
  },
  401: {
    name: 'Unauthorized',
    description:
      'No valid credentials (`unauthenticated`, `invalid_token`, `session_expired`), the wrong kind for this route (`session_required`), or a failed sign-in (`invalid_credentials`).',
    headers: ['WWW-Authenticate'],
  },
  403: {
    name: 'Forbidden',
    description:
      'Signed in but not allowed: the role or token scope is too narrow (`insufficient_role`), or a cookie-authenticated change came from another site (`cross_origin_refused`).',
  },
  404: {
    name: 'NotFound',
    description: 'No such resource, or one the caller may not see (the two look the same).',
  },
  406: {
    name: 'NotAcceptable',
    description: 'The answer exists only in media types `Accept` does not allow.',
  },
  409: {
    name: 'Conflict',
    description:
      'The request conflicts with the current state: a taken slug or name, a stale `baseRevision` (`revision_conflict`, with `currentRevision`), media still in use, the last administrator.',
  },
  410: {
    name: 'Gone',
    description:
      'A single-use link that was used, withdrawn or has expired (`invitation_used`, `invitation_revoked`, `invitation_expired`, `reset_link_used`, `reset_link_expired`).',
  },
  412: {
    name: 'PreconditionFailed',
    description:
      '`If-Match` names a revision the page is no longer at (`revision_mismatch`, with `currentRevision`): read it again.',
  },
  413: {
    name: 'ContentTooLarge',
    description:
      'The request, a file or the unpacked archive is larger than allowed, or a JSON body has more members than the route can use (`too_many_members`).',
  },
  415: {
    name: 'UnsupportedMediaType',
    description:
      'The body has another media type than the route reads (JSON or multipart/form-data), or a file of a type this route refuses.',
  },
  416: {
    name: 'RangeNotSatisfiable',
    description: 'The `Range` starts past the end of the content.',
    headers: ['Content-Range'],
  },
  422: {
    name: 'ValidationFailed',
    description: 'Well-formed but invalid: every bad field is listed under `errors`.',
    schema: 'ValidationProblem',
  },
  428: {
    name: 'PreconditionRequired',
    description:
      'An update must say which revision it is based on: send `If-Match` with the ETag you read, or `baseRevision`.',
  },
  429: {
    name: 'TooManyRequests',
    description:
      'Too many attempts, or over a rate limit (`rate_limited`); wait as `Retry-After` says.',
    headers: ['Retry-After', 'RateLimit-Policy', 'RateLimit'],
  },
  502: {
    name: 'BadGateway',
    description: 'The HTML-to-PDF service failed (`pdf_service_failed`).',
  },
  503: {
    name: 'ServiceUnavailable',
    description:
      'Not available now: the database does not answer, or the PDF service is not configured.',
    headers: ['Retry-After'],
  },
  504: {
    name: 'GatewayTimeout',
    description: 'The HTML-to-PDF service did not answer in time.',
  },
  default: {
    name: 'UnexpectedError',
    description:
      'Any other problem: 500 `internal_error` (quote `requestId`), 503 `database_busy` (try again after `Retry-After`).',
    headers: ['Retry-After'],
  },
};

export function errorResponseComponents(): Record<string, ResponseObject> {
  return Object.fromEntries(
    Object.values(ERROR_RESPONSES).map((r) => [
      r.name,
      {
        description: r.description,
        ...(r.headers ? { headers: headerRefs(r.headers) } : {}),
        content: {
          [PROBLEM_MEDIA_TYPE]: {
            schema: { $ref: `#/components/schemas/${r.schema ?? 'Problem'}` },
          },
        },
      },
    ]),
  );
}

/** What the app already knows about an operation that decides which errors it can answer. */
export interface OperationFacts {
  method: string;
  auth: AuthScheme | 'public';
  /** Roles narrower than "every signed-in user". */
  restrictedRoles: boolean;
  /** Reads a JSON body (a @Body() parameter). */
  jsonBody: boolean;
  multipart: boolean;
  /** Takes query parameters (validated: unknown ones are 422, bad cursors 400). */
  query: boolean;
  pathParams: boolean;
  /** Reads If-Match. */
  ifMatch: boolean;
  /** Declared on the handler with @ApiProblems(). */
  declared: number[];
  /** Counted against the caller's rate limits (authenticated /api routes). */
  rateLimited?: boolean;
}

/**
 * The error statuses an operation can answer, derived from its route: every request passes
 * the JSON body parser (400); credentials and roles come from the route policy the guard
 * enforces; bodies, query and path parameters and If-Match from the handler's parameters.
 */
export function errorStatuses(facts: OperationFacts): number[] {
  const statuses = new Set<number>([400, ...facts.declared]);
  if (facts.auth !== 'public') statuses.add(401);
  const cookieChange = facts.auth !== 'public' && facts.auth !== 'bearer';
  if (facts.restrictedRoles || (cookieChange && isUnsafeMethod(facts.method))) statuses.add(403);
  if (facts.jsonBody || facts.multipart) for (const s of [413, 415, 422]) statuses.add(s);
  if (facts.query) statuses.add(422);
  if (facts.pathParams) statuses.add(404);
  if (facts.ifMatch) statuses.add(412);
  if (facts.rateLimited) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

/** The operation's error responses as references to components.responses. */
export function errorResponseRefs(statuses: number[]): Record<string, { $ref: string }> {
  const refs: Record<string, { $ref: string }> = {};
  for (const status of [...statuses, 'default' as const]) {
    const response = ERROR_RESPONSES[status];
    if (!response) throw new Error(`No problem response is described for status ${status}`);
    refs[String(status)] = { $ref: `#/components/responses/${response.name}` };
  }
  return refs;
}
