import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import type { AuthUser } from '../auth/auth-user';
import {
  canonicalJson,
  fingerprintOf,
  parseIdempotencyKey,
  RECEIVED_BODY,
  ReceivedBody,
} from './idempotency-key';
import { IdempotencyStore } from './idempotency.store';

/** The answer headers a replay repeats (the rest, such as RateLimit, belong to each request). */
const REPLAYED_HEADERS = ['location', 'etag'];

type IdempotentRequest = Request & { user?: AuthUser; [RECEIVED_BODY]?: ReceivedBody };

/**
 * `Idempotency-Key` (IETF httpapi draft) on a POST route: the first request with a key runs and
 * its successful answer (status, Location, ETag, body) is stored; a retry with the same key and
 * the same body gets that answer again (with `Idempotent-Replayed: true`) and the handler does
 * not run. Keys belong to the caller: the token for bearer calls, the user for sessions.
 *
 * Only 2xx answers are kept. An error answer releases the key, so a retry runs the request
 * again: both routes are all-or-nothing, so an error wrote nothing, and a 5xx may be transient.
 *
 * Use after the interceptor that receives a non-JSON body (it leaves a ReceivedBody on the
 * request); a JSON body is fingerprinted here, by value (canonical key order).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<IdempotentRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const received = req[RECEIVED_BODY];
    let key: string | undefined;
    try {
      key = parseIdempotencyKey(req.headers['idempotency-key']);
    } catch (error) {
      await received?.discard();
      throw error;
    }
    const user = req.user;
    if (key === undefined || !user) return next.handle();
    const caller = user.via === 'bearer' && user.tokenId ? `t:${user.tokenId}` : `u:${user.id}`;
    const route = `${req.method} ${req.baseUrl}${req.path}`;
    const fingerprint = fingerprintOf(
      canonicalJson({ route, body: received?.fingerprint ?? req.body ?? null }),
    );
    let claim;
    try {
      claim = await this.store.claim(caller, key, fingerprint);
    } catch (error) {
      await received?.discard();
      throw error;
    }
    if (claim.kind === 'replay') {
      await received?.discard();
      const { answer } = claim;
      res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.setHeader('Idempotent-Replayed', 'true');
      return of(answer.body === '' ? undefined : JSON.parse(answer.body));
    }
    const { claimId } = claim;
    return next.handle().pipe(
      mergeMap((value) =>
        from(
          (async () => {
            if (res.statusCode >= 200 && res.statusCode < 300) {
              const headers: Record<string, string> = {};
              for (const name of REPLAYED_HEADERS) {
                const header = res.getHeader(name);
                if (header !== undefined) headers[name] = String(header);
              }
              const body = value === undefined ? '' : JSON.stringify(value);
              await this.store.complete(caller, key, claimId, {
                status: res.statusCode,
                headers,
                body,
              });
            } else {
              await this.store.release(caller, key, claimId);
            }
            return value;
          })(),
        ),
      ),
      catchError((error: unknown) =>
        from(
          this.store.release(caller, key, claimId).then(() => {
            throw error;
          }),
        ),
      ),
    );
  }
}
