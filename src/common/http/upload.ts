import {
  applyDecorators,
  CallHandler,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type { Observable } from 'rxjs';
import { RECEIVED_BODY, ReceivedBody } from '../idempotency/idempotency-key';

/**
 * Reads one kind of upload (a multipart body, through readMultipart) into the typed request its
 * handler takes, checked: a problem otherwise, with nothing left on disk.
 */
export interface UploadReceiver<T, O = undefined> {
  receive(req: IncomingMessage, options: O): Promise<T>;
  /** Removes what `receive` left on disk, for a request answered without its handler (a replay). */
  discard(upload: T): Promise<void>;
  /** What an idempotent retry must repeat (IdempotencyInterceptor); absent: not idempotent. */
  fingerprint?(upload: T): string;
}

interface UploadRoute {
  receiver: Type<UploadReceiver<unknown, unknown>>;
  options: unknown;
}

const UPLOAD_ROUTE = 'kb:uploadRoute';
const UPLOAD = Symbol('upload');

type UploadRequest = IncomingMessage & { [UPLOAD]?: unknown; [RECEIVED_BODY]?: ReceivedBody };

/**
 * The one upload interceptor: receives the body of a route marked `@ReceivesUpload(...)` (after
 * the guards, so anonymous and unauthorised callers never upload) and hands the handler the
 * typed request through `@ReceivedUpload()`. The handler owns what is on disk from then on.
 */
@Injectable()
export class UploadInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const route = this.reflector.get<UploadRoute>(UPLOAD_ROUTE, context.getHandler());
    const receiver = this.moduleRef.get(route.receiver, { strict: false });
    const req = context.switchToHttp().getRequest<UploadRequest>();
    const upload = await receiver.receive(req, route.options);
    req[UPLOAD] = upload;
    if (receiver.fingerprint) {
      // A replayed answer never reaches the handler that owns the files: the replay removes them.
      req[RECEIVED_BODY] = {
        fingerprint: receiver.fingerprint(upload),
        discard: () => receiver.discard(upload),
      };
    }
    return next.handle();
  }
}

/** The route's body is an upload `receiver` reads (with `options`), before the handler runs. */
export function ReceivesUpload<T, O>(
  receiver: Type<UploadReceiver<T, O>>,
  options?: O,
): MethodDecorator {
  return applyDecorators(
    SetMetadata(UPLOAD_ROUTE, { receiver, options } as UploadRoute),
    UseInterceptors(UploadInterceptor),
  );
}

/** The typed request UploadInterceptor received. */
export const ReceivedUpload = createParamDecorator(
  (_: unknown, context: ExecutionContext): unknown =>
    context.switchToHttp().getRequest<UploadRequest>()[UPLOAD],
);
