import { Database, Tx } from '../../src/common/database/database';
import { png } from '../support/images';
import { count, postImport, useImportApp, zip } from '../support/import-helpers';

/** What MariaDB answers the transaction InnoDB picks as a deadlock's victim. */
function deadlock(): Error {
  return Object.assign(
    new Error('Deadlock found when trying to get lock; try restarting transaction'),
    { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
  );
}

const ARCHIVE = {
  'guide/a.md':
    '# A\n\nSee [b](b.md) and [the missing page](missing.md).\n\n![logo](../logo.png)\n',
  'guide/b.md': '# B\n\nBack to [a](a.md).\n',
  'guide/c.md': '# C\n\nAlone.\n',
  'logo.png': png(4, 4),
};

const ctx = useImportApp();

describe('an import whose transaction the database rolls back and retries', () => {
  /**
   * Every transaction of the request fails once with a deadlock after its work ran (the last
   * moment InnoDB can pick it as the victim): everything it wrote is rolled back and the
   * work runs again, as withTransactionRetry does after a real deadlock.
   */
  function deadlockOnce(): { victims: number } {
    const db = ctx.t.get(Database);
    const original = db.transaction.bind(db);
    const seen = { victims: 0 };
    jest
      .spyOn(db, 'transaction')
      .mockImplementation(<T>(work: (tx: Tx) => Promise<T>, tx?: Tx): Promise<T> => {
        if (tx) return original(work, tx);
        let attempts = 0;
        return original(async (inner: Tx) => {
          const result = await work(inner);
          if (++attempts === 1) {
            seen.victims++;
            throw deadlock();
          }
          return result;
        });
      });
    return seen;
  }

  afterEach(() => jest.restoreAllMocks());

  it('reports each page, link and file once and writes them once', async () => {
    const { admin, t } = ctx;
    const seen = deadlockOnce();
    const res = await postImport(admin, {
      format: 'markdown',
      prefix: 'docs',
      files: [{ name: 'docs.zip', data: zip(ARCHIVE) }],
    }).expect(200);
    jest.restoreAllMocks();

    expect(seen.victims).toBeGreaterThan(0);
    expect([...res.body.created].sort()).toEqual(['docs/guide/a', 'docs/guide/b', 'docs/guide/c']);
    expect(res.body.pages).toHaveLength(3);
    expect(res.body.unresolvedLinks).toEqual([{ path: 'guide/a.md', target: 'missing.md' }]);
    expect(res.body.images).toHaveLength(1);
    expect(res.body.images[0].path).toBe('logo.png');
    expect(res.body.refusedFiles).toEqual([]);

    expect(await count(t, 'pages')).toBe(3);
    expect(await count(t, 'page_revisions')).toBe(3);
    expect(await count(t, 'media')).toBe(1);
    // The stored image is the one the page links to, and it answers.
    const page = await admin.get('/api/pages/docs/guide/a').expect(200);
    const mediaUrl = res.body.images[0].url as string;
    expect(page.body.content).toContain(mediaUrl);
    await admin.get(mediaUrl).expect(200);
  });
});
