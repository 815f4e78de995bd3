import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { from, mergeMap, Observable } from 'rxjs';
import { Database } from './database';
import { ReadContext, readContext } from './read-context';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With read replicas: tells the database who is asking (ReadContext) and records a user's
 * write request, so that user's next requests, on any instance, read from the primary
 * (ReplicaReads). Without replicas: nothing.
 *
 * The write is recorded twice. Before the handler runs, awaited: when that fails the request
 * fails before it changed anything, so a proxy may send it to another instance (nginx retries
 * a PUT or DELETE that answered 503). And again once it succeeded (the sticky window counts
 * from the end of a long write, an import), on a best-effort basis: the change is committed
 * by then, and a failure there answered as an error (503) would make a proxy or a client
 * apply the change a second time (a PUT with If-Match then fails 412).
 */
@Injectable()
export class ReadYourWritesInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ReadYourWrites');

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
            ? from(this.db.markWrite(userId)).pipe(
                mergeMap(() => next.handle()),
                mergeMap(async (value: unknown) => {
                  await this.markWritten(userId);
                  return value;
                }),
              )
            : next.handle();
        return handled.subscribe(subscriber);
      }),
    );
  }

  private async markWritten(userId: string): Promise<void> {
    try {
      await this.db.markWrite(userId);
    } catch (error) {
      this.logger.warn({
        msg: 'could not record a committed write (read-your-writes counts from its start)',
        userId,
        error: String(error),
      });
    }
  }
}
