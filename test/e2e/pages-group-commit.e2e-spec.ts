import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { createPage, newPage } from '../support/pages';
import { eventually } from '../support/eventually';
import { Database } from '../../src/common/database/database';
import { SqliteDatabase } from '../../src/common/database/sqlite-database';
import { PagesTable } from '../../src/pages/store/page.entity';
import { PageRevisionsTable } from '../../src/pages/store/page-revision.entity';

/**
 * Group commit (SQLite): writes that queue behind a running one are committed together, each in
 * a savepoint of its own. On MariaDB the same requests run as independent transactions; the
 * answers and the stored state must be the same on both.
 */
describe('pages: writes committed together stay independent', () => {
  let t: TestApp;
  let editors: Client[];
  let db: Database;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.get(Database);
    editors = [];
    for (let i = 0; i < 3; i++) editors.push(await signedIn(t, 'editor'));
  });
  afterAll(() => t.close());

  /**
   * Holds the database's writer (on SQLite) until `expected` writes wait behind it, so that
   * they are committed as one group; on MariaDB there is no queue and it only lets go.
   */
  async function holdWriterWhile<T>(expected: number, fire: () => Promise<T>): Promise<T> {
    if (!(db instanceof SqliteDatabase)) return fire();
    const writer = db.writer;
    const groupsBefore = writer.groups;
    let release!: () => void;
    const held = db.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    await eventually(() => expect(writer.busy).toBe(true), 30_000);
    const fired = fire();
    try {
      await eventually(() => expect(writer.waiting).toBeGreaterThanOrEqual(expected), 60_000);
    } finally {
      release();
      await held;
    }
    const result = await fired;
    expect(writer.groups).toBeGreaterThan(groupsBefore);
    return result;
  }

  it('many concurrent If-Match updates: exactly one winner per version, every acknowledged write stored', async () => {
    const pages = 6;
    const writersPerPage = 5;
    const slugs: string[] = [];
    for (let p = 0; p < pages; p++) slugs.push((await createPage(editors[0], `gc-${p}`)).slug);
    const winnersByRound: string[][] = [];
    for (let round = 1; round <= 3; round++) {
      const requests = () =>
        Promise.all(
          slugs.flatMap((slug) =>
            Array.from({ length: writersPerPage }, (_, w) =>
              editors[w % editors.length]
                .put(`/api/pages/${slug}`)
                .set('If-Match', `"${round}"`)
                .send({ content: `${slug} round ${round} writer ${w}` })
                .then((res) => ({ slug, res })),
            ),
          ),
        );
      const answers = await holdWriterWhile(pages * writersPerPage, requests);
      const winners: string[] = [];
      for (const slug of slugs) {
        const mine = answers.filter((a) => a.slug === slug);
        const won = mine.filter((a) => a.res.status === 200);
        expect(won).toHaveLength(1);
        expect(won[0].res.body.revision).toBe(round + 1);
        for (const lost of mine.filter((a) => a.res.status !== 200)) {
          expect(lost.res.status).toBe(412);
          expect(lost.res.body.code).toBe('revision_mismatch');
        }
        winners.push(won[0].res.body.content as string);
      }
      winnersByRound.push(winners);
    }
    // Every acknowledged write is in the database: the page and its revision history.
    for (const [p, slug] of slugs.entries()) {
      const page = await editors[0].get(`/api/pages/${slug}`).expect(200);
      expect(page.body.revision).toBe(4);
      expect(page.body.content).toBe(winnersByRound[2][p]);
      const stored = await t.dataSource
        .getRepository(PagesTable)
        .findOneByOrFail({ liveSlug: slug });
      const revisions = await t.dataSource
        .getRepository(PageRevisionsTable)
        .find({ where: { pageId: stored.id }, order: { revision: 'ASC' } });
      expect(revisions.map((r) => r.content)).toEqual([
        expect.any(String),
        winnersByRound[0][p],
        winnersByRound[1][p],
        winnersByRound[2][p],
      ]);
    }
  });

  it('a failing write in a group takes back only itself: its neighbours are committed', async () => {
    const pageRepo = t.dataSource.getRepository(PagesTable);
    const created = async (slug: string, content: string) => {
      await createPage(editors[0], slug, { content });
      return pageRepo.findOneByOrFail({ liveSlug: slug });
    };
    const a = await created('gc-a', 'a1');
    const b = await created('gc-b', 'b1');
    await created('gc-taken', 'taken');
    const c = await created('gc-c', 'c1');
    const [answers, partial] = await holdWriterWhile(6, () =>
      Promise.all([
        Promise.all([
          editors[0].put('/api/pages/gc-a').set('If-Match', '"1"').send({ content: 'a2' }),
          // A stale precondition: 412, nothing written.
          editors[1].put('/api/pages/gc-b').set('If-Match', '"7"').send({ content: 'b-stale' }),
          // A unique violation in the middle of the group: 409, no page row, no revision.
          editors[2].post('/api/pages').send(newPage('gc-taken', { content: 'duplicate' })),
          editors[0].post('/api/pages').send(newPage('gc-new', { content: 'new' })),
          editors[1].put('/api/pages/gc-c').set('If-Match', '"1"').send({ content: 'c2' }),
        ]),
        // A transaction that wrote a row and then failed: its row must not survive.
        db
          .transaction(async (tx) => {
            await tx.manager.getRepository(PagesTable).update({ id: b.id }, { title: 'half' });
            throw new Error('failed after writing');
          })
          .then(
            () => 'committed',
            (error: Error) => error.message,
          ),
      ]),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 412, 409, 201, 200]);
    expect(answers[1].body.code).toBe('revision_mismatch');
    expect(partial).toBe('failed after writing');

    expect((await pageRepo.findOneByOrFail({ id: a.id })).content).toBe('a2');
    const storedB = await pageRepo.findOneByOrFail({ id: b.id });
    expect([storedB.content, storedB.title, storedB.revision]).toEqual(['b1', b.title, 1]);
    expect((await pageRepo.findOneByOrFail({ id: c.id })).content).toBe('c2');
    expect(await pageRepo.countBy({ slug: 'gc-taken' })).toBe(1);
    expect((await pageRepo.findOneByOrFail({ liveSlug: 'gc-taken' })).content).toBe('taken');
    await editors[0].get('/api/pages/gc-new').expect(200);
    const revisions = t.dataSource.getRepository(PageRevisionsTable);
    expect(await revisions.countBy({ pageId: b.id })).toBe(1);
    expect(await revisions.countBy({ pageId: c.id })).toBe(2);
  });
});
