import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { NextFunction, Request, Response } from 'express';
import { Problem } from '../problems/problem';

/** The media types the JSON body parser reads (app.factory.ts). */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/** A body is present when the request announces one: Content-Length > 0 or Transfer-Encoding. */
export function hasRequestBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}

/** Whether a handler reads a JSON body: every JSON body comes through a `@Body()` parameter. */
export function readsJsonBody(controller: object, handler: object): boolean {
  const name = (handler as { name: string }).name;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
    string,
    unknown
  >;
  // Keys are `${paramtype}:${index}`.
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/**
 * 415 `unsupported_media_type` when a route that takes a JSON body receives a body of another
 * media type (or none declared). The last global guard, so 401/403 (and 429) come first; a
 * request with no body at all is left to the validation (400 `invalid_body`). Multipart routes
 * read their own bodies and check their own types.
 */
@Injectable()
export class JsonBodyGuard implements CanActivate {
  private readonly cache = new WeakMap<object, boolean>();

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() === 'http') {
      const handler = context.getHandler();
      let takesJson = this.cache.get(handler);
      if (takesJson === undefined) {
        takesJson = readsJsonBody(context.getClass(), handler);
        this.cache.set(handler, takesJson);
      }
      const req = context.switchToHttp().getRequest<Request>();
      if (takesJson && hasRequestBody(req) && !req.is(JSON_MEDIA_TYPES)) {
        const type = req.headers['content-type'];
        throw new Problem(
          415,
          'unsupported_media_type',
          type
            ? `This route reads a JSON body (Content-Type: application/json), not ${type.split(';')[0].trim()}.`
            : 'This route reads a JSON body: send it with Content-Type: application/json.',
          {},
          { Accept: 'application/json' },
        );
      }
    }
    return true;
  }
}

/**
 * 415 `unsupported_encoding` for a body with a `Content-Encoding` that no parser decodes: only
 * JSON bodies are inflated (gzip, deflate, br); multipart uploads and everything else must come
 * uncompressed. Mounted after the JSON parsers, which have consumed the bodies they read.
 */
export function refuseEncodedBodies(req: Request, _res: Response, next: NextFunction): void {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && hasRequestBody(req) && !req.is(JSON_MEDIA_TYPES)) {
    next(
      new Problem(
        415,
        'unsupported_encoding',
        `This route reads no Content-Encoding (${encoding}): send the body uncompressed. Only JSON bodies may be compressed.`,
        {},
        { 'Accept-Encoding': 'identity' },
      ),
    );
    return;
  }
  next();
}
