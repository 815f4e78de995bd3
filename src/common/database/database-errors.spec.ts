import { Problem } from '../problems/problem';
import { databaseProblem, TRANSACTION_ATTEMPTS, withTransactionRetry } from './database-errors';

const deadlock = () =>
  Object.assign(new Error('Deadlock found when trying to get lock'), {
    code: 'ER_LOCK_DEADLOCK',
    errno: 1213,
    sqlState: '40001',
  });

describe('withTransactionRetry', () => {
  it('runs a deadlocked transaction again until it commits', async () => {
    let attempts = 0;
    const result = await withTransactionRetry(async () => {
      attempts += 1;
      if (attempts < 3) throw { driverError: deadlock() };
      return 'committed';
    });
    expect(result).toBe('committed');
    expect(attempts).toBe(3);
  });

  it("runs a transaction again after SQLite's extended busy codes (better-sqlite3 reports them)", async () => {
    let attempts = 0;
    const result = await withTransactionRetry(async () => {
      attempts += 1;
      if (attempts === 1)
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY_SNAPSHOT' });
      return 'committed';
    });
    expect([result, attempts]).toEqual(['committed', 2]);
  });

  it('gives up after a bounded number of attempts with 503 database_busy and Retry-After', async () => {
    let attempts = 0;
    const failure = await withTransactionRetry(async () => {
      attempts += 1;
      throw deadlock();
    }).catch((error: unknown) => error);
    expect(attempts).toBe(TRANSACTION_ATTEMPTS);
    expect(failure).toBeInstanceOf(Problem);
    expect(failure).toMatchObject({
      status: 503,
      code: 'database_busy',
      headers: { 'Retry-After': '1' },
    });
  });

  it('never repeats other errors', async () => {
    let attempts = 0;
    await expect(
      withTransactionRetry(async () => {
        attempts += 1;
        throw Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY', errno: 1062 });
      }),
    ).rejects.toThrow('Duplicate entry');
    expect(attempts).toBe(1);
  });

  it('maps an unreachable server to 503 database_unavailable', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(databaseProblem(refused)).toMatchObject({
      status: 503,
      code: 'database_unavailable',
      headers: { 'Retry-After': '5' },
    });
    expect(databaseProblem(new Error('something else'))).toBeUndefined();
  });
});
