import { SqliteWriter } from './sqlite-writer';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SqliteWriter', () => {
  it('runs turns one at a time, first come first served', async () => {
    const writer = new SqliteWriter();
    const log: string[] = [];
    const turn = (name: string) =>
      writer.run(async () => {
        log.push(`${name} start`);
        await tick();
        await tick();
        log.push(`${name} end`);
        return name;
      });
    await expect(Promise.all([turn('a'), turn('b'), turn('c')])).resolves.toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs work started inside a turn at once (no waiting for itself), also after awaits', async () => {
    const writer = new SqliteWriter();
    const result = await writer.run(async () => {
      await tick();
      expect(writer.holding).toBe(true);
      return writer.run(async () => 'nested');
    });
    expect(result).toBe('nested');
    expect(writer.holding).toBe(false);
  });

  it('releases the turn when the work fails', async () => {
    const writer = new SqliteWriter();
    await expect(writer.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(writer.run(async () => 'next')).resolves.toBe('next');
  });

  it('gives up after waitMs with 503 database_busy and keeps the queue moving', async () => {
    const writer = new SqliteWriter(20);
    let finish!: () => void;
    const held = writer.run(() => new Promise<void>((resolve) => (finish = resolve)));
    await expect(writer.run(async () => 'late')).rejects.toMatchObject({
      status: 503,
      code: 'database_busy',
    });
    const after = writer.run(async () => 'after');
    finish();
    await held;
    await expect(after).resolves.toBe('after');
  });
});
