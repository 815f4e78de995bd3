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

/** A fake group transaction over an in-memory table: savepoints are what the turns do. */
function fakeGroup(options: { failCommit?: boolean } = {}) {
  const log: string[] = [];
  let failCommit = options.failCommit ?? false;
  const group = {
    begin: async () => void log.push('begin'),
    commit: async () => {
      if (failCommit) {
        failCommit = false;
        log.push('commit failed');
        throw new Error('disk full');
      }
      log.push('commit');
    },
    rollback: async () => void log.push('rollback'),
    open: () => true,
  };
  return { log, group };
}

describe('SqliteWriter group commit', () => {
  it('commits the turns that queued behind a running one together, each settling after the commit', async () => {
    const { log, group } = fakeGroup();
    const writer = new SqliteWriter(30_000, group);
    let finish!: () => void;
    const first = writer.run(
      () => new Promise<string>((resolve) => (finish = () => resolve('first'))),
    );
    await tick(); // the first turn starts alone; the next ones queue behind it
    const settled: string[] = [];
    const rest = ['a', 'b', 'c'].map((name) =>
      writer
        .run(async () => {
          log.push(`${name} grouped=${writer.grouped}`);
          return name;
        })
        .then((value) => {
          settled.push(`${value} after ${log[log.length - 1]}`);
          return value;
        }),
    );
    await tick();
    expect(writer.waiting).toBe(3);
    finish();
    await expect(first).resolves.toBe('first');
    await expect(Promise.all(rest)).resolves.toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['begin', 'a grouped=true', 'b grouped=true', 'c grouped=true', 'commit']);
    expect(settled).toEqual(['a after commit', 'b after commit', 'c after commit']);
    expect(writer.groups).toBe(1);
    expect(writer.groupedTurns).toBe(3);
  });

  it('gives a failing turn its own error while its neighbours succeed', async () => {
    const { log, group } = fakeGroup();
    const writer = new SqliteWriter(30_000, group);
    let finish!: () => void;
    const first = writer.run(() => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    const ok1 = writer.run(async () => 'ok1');
    const bad = writer.run(() => Promise.reject(new Error('precondition failed')));
    const ok2 = writer.run(async () => 'ok2');
    finish();
    await first;
    await expect(ok1).resolves.toBe('ok1');
    await expect(bad).rejects.toThrow('precondition failed');
    await expect(ok2).resolves.toBe('ok2');
    expect(log).toEqual(['begin', 'commit']);
  });

  it('runs every turn of a group again on its own when the COMMIT fails', async () => {
    const { log, group } = fakeGroup({ failCommit: true });
    const writer = new SqliteWriter(30_000, group);
    let finish!: () => void;
    const first = writer.run(() => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    const runs: string[] = [];
    const turns = ['a', 'b'].map((name) =>
      writer.run(async () => {
        runs.push(`${name} grouped=${writer.grouped}`);
        return name;
      }),
    );
    finish();
    await first;
    await expect(Promise.all(turns)).resolves.toEqual(['a', 'b']);
    expect(log).toEqual(['begin', 'commit failed', 'rollback']);
    expect(runs).toEqual([
      'a grouped=true',
      'b grouped=true',
      'a grouped=false',
      'b grouped=false',
    ]);
  });

  it('groups the turns queued in the same I/O phase, even when none was running', async () => {
    const { log, group } = fakeGroup();
    const writer = new SqliteWriter(30_000, group);
    const turns = ['a', 'b', 'c'].map((name) => writer.run(async () => name));
    expect(writer.waiting).toBe(3);
    await expect(Promise.all(turns)).resolves.toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['begin', 'commit']);
    expect(writer.groupedTurns).toBe(3);
  });

  it('holds the cross-process write lock for a whole group and releases it', async () => {
    const { group } = fakeGroup();
    const events: string[] = [];
    const lock = {
      acquire: async () => {
        events.push('acquire');
        return () => events.push('release');
      },
    };
    const writer = new SqliteWriter(30_000, group, lock);
    let finish!: () => void;
    const first = writer.run(() => new Promise<void>((resolve) => (finish = resolve)));
    await tick();
    await tick();
    const rest = [writer.run(async () => 1), writer.run(async () => 2)];
    finish();
    await first;
    await Promise.all(rest);
    expect(events).toEqual(['acquire', 'release', 'acquire', 'release']);
  });
});

describe('SqliteWriter heartbeat', () => {
  it('keeps writes waiting behind a long turn that reports progress, and only the holder can', async () => {
    const writer = new SqliteWriter(200);
    let finish!: () => void;
    let beating = true;
    const long = writer.run(async () => {
      const beat = async () => {
        while (beating) {
          writer.heartbeat();
          await tick();
        }
      };
      const beats = beat();
      await new Promise<void>((resolve) => (finish = resolve));
      beating = false;
      await beats;
    });
    const waiting = writer.run(async () => 'waited');
    // Outside the turn a heartbeat changes nothing.
    writer.heartbeat();
    // Three times waitMs pass; the waiting write is still there.
    const started = Date.now();
    while (Date.now() - started < 600) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writer.waiting).toBe(1);
    finish();
    await long;
    await expect(waiting).resolves.toBe('waited');
  });
});

describe('SqliteWriter heartbeat across processes', () => {
  it("reports its progress to the lock, and another process's progress keeps its own writes waiting", async () => {
    let otherProgress!: () => void;
    const reported: string[] = [];
    let releaseOther!: () => void;
    const otherHolds = new Promise<void>((resolve) => (releaseOther = resolve));
    let first = true;
    const lock = {
      acquire: async () => {
        // The first acquire waits while "another process" holds the lock.
        if (first) {
          first = false;
          await otherHolds;
        }
        return () => undefined;
      },
      progress: () => reported.push('progress'),
      onProgress: (listener: () => void) => (otherProgress = listener),
    };
    const writer = new SqliteWriter(500, undefined, lock);
    const waiting = writer.run(async () => {
      writer.heartbeat();
      return 'written';
    });
    // Three times waitMs pass while the other process holds the lock and reports progress.
    const started = Date.now();
    while (Date.now() - started < 1500) {
      otherProgress();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    releaseOther();
    await expect(waiting).resolves.toBe('written');
    expect(reported).toEqual(['progress']);
  });
});
