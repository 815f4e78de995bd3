import { CallHandler, ExecutionContext, Logger } from '@nestjs/common';
import { defer, firstValueFrom, of } from 'rxjs';
import type { Database } from './database';
import { readContext } from './read-context';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor';

function httpContext(method: string, userId = 'u1'): ExecutionContext {
  const req = { method, user: { id: userId } };
  return {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

/** A database with replicas whose markWrite answers from `marks` in turn (an Error throws). */
function database(marks: (Error | undefined)[]) {
  const calls: string[] = [];
  const db = {
    readsReplicas: true,
    markWrite: (userId: string) => {
      calls.push(`mark ${userId}`);
      const outcome = marks.shift();
      return outcome ? Promise.reject(outcome) : Promise.resolve();
    },
  } as unknown as Database;
  return { db, calls };
}

function handler(calls: string[]): CallHandler {
  return {
    handle: () =>
      defer(() => {
        calls.push(`handler primary=${readContext.getStore()?.primary}`);
        return of('answer');
      }),
  };
}

describe('ReadYourWritesInterceptor', () => {
  it('records a write before the handler runs and again once it succeeded', async () => {
    const { db, calls } = database([]);
    const answer = new ReadYourWritesInterceptor(db).intercept(httpContext('PUT'), handler(calls));
    await expect(firstValueFrom(answer)).resolves.toBe('answer');
    expect(calls).toEqual(['mark u1', 'handler primary=true', 'mark u1']);
  });

  it('fails a write whose first record fails before anything ran (a proxy may retry it)', async () => {
    const { db, calls } = database([new Error('ER_LOCK_DEADLOCK')]);
    const answer = new ReadYourWritesInterceptor(db).intercept(httpContext('PUT'), handler(calls));
    await expect(firstValueFrom(answer)).rejects.toThrow('ER_LOCK_DEADLOCK');
    expect(calls).toEqual(['mark u1']);
  });

  it('answers a committed write as it succeeded when recording it afterwards fails', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { db, calls } = database([undefined, new Error('connection lost')]);
    const answer = new ReadYourWritesInterceptor(db).intercept(httpContext('PUT'), handler(calls));
    await expect(firstValueFrom(answer)).resolves.toBe('answer');
    expect(calls).toEqual(['mark u1', 'handler primary=true', 'mark u1']);
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ error: 'Error: connection lost' }));
    warn.mockRestore();
  });

  it('records nothing for a read', async () => {
    const { db, calls } = database([]);
    const answer = new ReadYourWritesInterceptor(db).intercept(httpContext('GET'), handler(calls));
    await expect(firstValueFrom(answer)).resolves.toBe('answer');
    expect(calls).toEqual(['handler primary=false']);
  });
});
