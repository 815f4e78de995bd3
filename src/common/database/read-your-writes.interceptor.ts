import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { mergeMap, Observable } from 'rxjs';
import { Database } from './database';
import { ReadContext, readContext } from './read-context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With read replicas: tells the database who is asking (ReadContext) and, once a user's write
 * request has succeeded, records the write before the response goes out, so that user's next
 * request, on any instance, reads from the primary (ReplicaReads). Without replicas: nothing.
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  constructor(private readonly db: Database) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.db.readsReplicas || context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<{ method: string; user?: { id: string } }>();
    const writes = !SAFE_METHODS.has(req.method);
    const userId = req.user?.id;
    const store: ReadContext = { userId, primary: writes };
    return new Observable((subscriber) =>
      readContext.run(store, () => {
        const handled =
          writes && userId
            ? next.handle().pipe(
                mergeMap(async (value: unknown) => {
                  await this.db.markWrite(userId);
                  return value;
                }),
              )
            : next.handle();
        return handled.subscribe(subscriber);
      }),
    );
  }
}
