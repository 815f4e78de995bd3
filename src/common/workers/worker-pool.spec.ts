import { join } from 'node:path';
import { WorkerPool } from './worker-pool';

const ENTRY = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'workers', 'echo-worker.ts');

type Request =
  { echo: string } | { fail: string } | { crash: true } | { waitMs: number; echo: string };

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WorkerPool', () => {
  let pool: WorkerPool<Request, string> | undefined;
  afterEach(() => pool?.close(0));

  it('answers through its workers once they are ready', async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'w' }, 2, 'echo');
    expect(pool.ready).toBe(false);
    await expect(pool.run({ echo: 'early' })).rejects.toThrow('The echo pool has no worker ready');
    await until(() => pool!.ready);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => pool!.run({ waitMs: 5, echo: String(i) })),
    );
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => `w:${i}`));
    expect(pool.served).toBe(20);
    expect(pool.stats()).toEqual({ pool: 'echo', active: 0, waiting: 0 });
  });

  it('reports work in hand while it runs', async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'w' }, 1, 'echo');
    await until(() => pool!.ready);
    const running = [pool.run({ waitMs: 200, echo: 'a' }), pool.run({ waitMs: 0, echo: 'b' })];
    expect(pool.stats()).toEqual({ pool: 'echo', active: 1, waiting: 1 });
    await expect(Promise.all(running)).resolves.toEqual(['w:a', 'w:b']);
  });

  it("hands a worker's error back with its message, name and code", async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'w' }, 1, 'echo');
    await until(() => pool!.ready);
    await expect(pool.run({ fail: 'refused' })).rejects.toMatchObject({
      message: 'refused',
      name: 'Error',
      code: 'E_TEST',
    });
    await expect(pool.run({ echo: 'after' })).resolves.toBe('w:after');
  });

  it('fails the requests of a worker that dies and replaces it', async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'w' }, 1, 'echo');
    await until(() => pool!.ready);
    const stalled = pool.run({ waitMs: 1_000, echo: 'lost' });
    await expect(pool.run({ crash: true })).rejects.toThrow('A echo worker exited (code 3)');
    await expect(stalled).rejects.toThrow('A echo worker exited (code 3)');
    await until(() => pool!.ready);
    await expect(pool.run({ echo: 'again' })).resolves.toBe('w:again');
  });

  it('starts a lazy pool on the first start(), not before', async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'lazy' }, 1, 'echo', true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pool.ready).toBe(false);
    expect(pool.stats()).toEqual({ pool: 'echo', active: 0, waiting: 0 });
    pool.start();
    await until(() => pool!.ready);
    await expect(pool.run({ echo: 'x' })).resolves.toBe('lazy:x');
  });

  it('takes no work once closed', async () => {
    pool = new WorkerPool<Request, string>(ENTRY, { tag: 'w' }, 1, 'echo');
    await until(() => pool!.ready);
    await pool.close();
    expect(pool.ready).toBe(false);
    await expect(pool.run({ echo: 'late' })).rejects.toThrow('no worker ready');
  });
});
