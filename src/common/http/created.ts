import type { Response } from 'express';

/**
 * A write that made a new resource: its answer, the address it lives at, and any other headers
 * (an ETag). Services return it; the controller hands it to `answerWrite`, which sends 201 with
 * `Location` (and the headers), so every create route answers the same way.
 */
export class Created<T> {
  constructor(
    readonly body: T,
    readonly location: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A write that started work to be followed elsewhere: 202 with the `Location` to follow. */
export class Accepted<T> {
  constructor(
    readonly body: T,
    readonly location: string,
  ) {}
}

/** `/api/<collection>/<id>`, each path segment of the id percent-encoded (a slug keeps its `/`). */
export function locationOf(collection: string, id: string): string {
  return `/api/${collection}/${id.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Sends a write's answer: 201 with Location when it created the resource, 202 with Location when
 * it started work (an import job), else the route's status (a replaced draft is 200). For
 * `@Res({ passthrough: true })` handlers.
 */
export function answerWrite<T>(res: Response, result: T | Created<T> | Accepted<T>): T {
  if (result instanceof Accepted) {
    res.status(202).location(result.location);
    return result.body;
  }
  if (!(result instanceof Created)) return result;
  res.status(201).location(result.location);
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  return result.body;
}
