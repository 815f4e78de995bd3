import { applyDecorators, SetMetadata, Type } from '@nestjs/common';
import { ApiExtraModels } from '@nestjs/swagger';
import type { ResponseHeaderName } from './response-headers';

export const API_RESULT_KEY = 'kb:apiResult';
export const API_PROBLEMS_KEY = 'kb:apiProblems';

export interface ApiResultOptions {
  /** What the success answer means, when more than its status says. */
  description?: string;
  /** Response headers the success answer carries (described once in components.headers). */
  headers?: ResponseHeaderName[];
  /** Further success statuses with the same body (a PUT that creates answers 201). */
  alsoStatus?: number[];
  /** The read honours If-None-Match: 304 with no body. */
  notModified?: boolean;
  /** The address may be an old one of a moved resource: 308 with `Location`. */
  moved?: boolean;
  /** Another success answer with a body of its own (202 with a job instead of 200 with the result). */
  other?: {
    status: number;
    type: Type<unknown>;
    description: string;
    headers?: ResponseHeaderName[];
  };
}

/** A success body: a JSON schema class, or the media types of a file answer. */
export interface ApiResultMetadata extends ApiResultOptions {
  type?: Type<unknown>;
  /** Media type to `binary` (bytes) or `text`. */
  content?: Record<string, 'binary' | 'text'>;
  /** A JSON body that is not an object of a class (a bare array of arrays). */
  schema?: Record<string, unknown>;
}

/** Exactly the same type both ways (optional members, null and extra members count). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

interface ReturnsAnotherShape {
  'the handler returns another shape than the documented response type': never;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => unknown;

/**
 * Documents a handler's JSON success body as the schema of `type` (a response class beside the
 * feature's mapper). The compiler checks that the handler returns exactly that shape, so the
 * description cannot drift from the code; the status comes from the route (method, @HttpCode).
 */
export function ApiResult<T>(type: Type<T>, options: ApiResultOptions = {}) {
  const decorate = applyDecorators(
    ApiExtraModels(type),
    SetMetadata(API_RESULT_KEY, { ...options, type } satisfies ApiResultMetadata),
  );
  return <H extends Handler>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<H> &
      (Same<Awaited<ReturnType<H>>, T> extends true ? unknown : ReturnsAnotherShape),
  ): void => {
    decorate(target, key, descriptor);
  };
}

/**
 * @ApiResult for a handler that sends its answer itself through `@Res()` (a 304 or another
 * media type), so its return type says nothing: the response test checks it instead.
 */
export function ApiSentResult(
  type: Type<unknown>,
  options: ApiResultOptions & {
    /** Other media types the answer may have besides the JSON of `type` (by Accept). */
    content?: ApiResultMetadata['content'];
  } = {},
): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(type, ...(options.other ? [options.other.type] : [])),
    SetMetadata(API_RESULT_KEY, { ...options, type } satisfies ApiResultMetadata),
  );
}

/** Documents a success answer that is a file or text rather than JSON. */
export function ApiFileResult(
  content: Record<string, 'binary' | 'text'>,
  options: ApiResultOptions = {},
): MethodDecorator {
  return SetMetadata(API_RESULT_KEY, { ...options, content } satisfies ApiResultMetadata);
}

/**
 * Error statuses a handler answers beyond those its route already implies (credentials,
 * roles, bodies, query, path parameters and If-Match are derived in one place: see
 * error-responses.ts): 409 conflicts, 428, 429, upstream failures.
 */
export const ApiProblems = (...statuses: number[]): MethodDecorator =>
  SetMetadata(API_PROBLEMS_KEY, statuses);

/**
 * Documents a JSON success body that no response class can describe (a bare array of arrays,
 * as `PUT /api/search/synonyms` takes and answers) by its JSON schema.
 */
export function ApiSchemaResult(schema: Record<string, unknown>, options: ApiResultOptions = {}) {
  return SetMetadata(API_RESULT_KEY, { ...options, schema } satisfies ApiResultMetadata);
}
