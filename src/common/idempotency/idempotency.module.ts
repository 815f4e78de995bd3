import { applyDecorators, Global, Module, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

/** Idempotency-Key support for the routes that use IdempotencyInterceptor. */
@Global()
@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}

/**
 * Makes a POST route honour `Idempotency-Key`. Put it above an interceptor that receives a
 * non-JSON body (decorators apply bottom-up, so that one runs first). The route declares 409.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'IETF httpapi draft: `"abc"` or `abc`, at most 255 characters, per caller for 24 h. A retry with the same key and the same body replays the first successful answer (status, Location, ETag, body; `Idempotent-Replayed: true`) without a second write; the same key with another body is 422 `idempotency_key_reused`; a retry while the first still runs waits for it (409 `idempotency_key_in_progress` after IDEMPOTENCY_WAIT_MS). Error answers are not kept.',
      schema: { type: 'string', maxLength: 257 },
    }),
  );
}
