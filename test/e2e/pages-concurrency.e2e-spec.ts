import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';
import { createPage } from '../support/pages';
import { PageRevisionsTable } from '../../src/pages/store/page-revision.entity';
import { PagesTable } from '../../src/pages/store/page.entity';
import { Database } from '../../src/common/database/database';
import { stateOf } from '../../src/pages/page-input.service';
import { PageDeriver } from '../../src/pages/page-deriver';
import { PagesRepository } from '../../src/pages/store/pages.repository';

const N = 12;

describe('pages: concurrent writers', () => {
  let t: TestApp;
  let editors: Client[];

  beforeAll(async () => {
    t = await createTestApp();
    editors = [];
    for (let i = 0; i < 3; i++) editors.push(await signedIn(t, 'editor'));
  });
  afterAll(() => t.close());

  it.each([
    ['baseRevision', 409],
    ['If-Match', 412],
  ] as const)(
    'exactly one of %s-based simultaneous updates wins; the others get %i',
    async (mode, loserStatus) => {
      const slug = `race-${mode.toLowerCase()}`;
      await createPage(editors[0], slug, { content: 'original' });
      const responses = await Promise.all(
        Array.from({ length: N }, (_, i) => {
          const request = editors[i % editors.length].put(`/api/pages/${slug}`);
          return mode === 'If-Match'
            ? request.set('If-Match', '"1"').send({ content: `writer ${i}` })
            : request.send({ baseRevision: 1, content: `writer ${i}` });
        }),
      );
      const winners = responses.filter((r) => r.status === 200);
      const losers = responses.filter((r) => r.status !== 200);
      expect(winners).toHaveLength(1);
      expect(losers.map((r) => r.status)).toEqual(Array(N - 1).fill(loserStatus));
      for (const loser of losers)
        expect(loser.body.code).toBe(
          loserStatus === 409 ? 'revision_conflict' : 'revision_mismatch',
        );

      const winnerContent = winners[0].body.content as string;
      const page = await editors[0].get(`/api/pages/${slug}`).expect(200);
      expect(page.body.revision).toBe(2);
      expect(page.body.content).toBe(winnerContent);
      const stored = await t.dataSource
        .getRepository(PagesTable)
        .findOneByOrFail({ liveSlug: slug });
      const revisions = await t.dataSource
        .getRepository(PageRevisionsTable)
        .find({ where: { pageId: stored.id }, order: { revision: 'ASC' } });
      expect(revisions.map((r) => [r.revision, r.content])).toEqual([
        [1, 'original'],
        [2, winnerContent],
      ]);
    },
  );

  it('the conditional UPDATE itself lets only one writer per base revision through', async () => {
    await createPage(editors[0], 'guarded', { content: 'v1' });
    const deriver = t.get(PageDeriver);
    const pages = t.get(PagesRepository);
    const page = await t.dataSource
      .getRepository(PagesTable)
      .findOneByOrFail({ liveSlug: 'guarded' });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => {
        const state = { ...stateOf(page, []), content: `direct ${i}` };
        return deriver.derive(state).then((derived) =>
          t.get(Database).transaction((tx) =>
            pages.updateIfAt(
              {
                pageId: page.id,
                baseRevision: 1,
                state,
                derived,
                actorId: null,
                action: 'updated',
              },
              tx,
            ),
          ),
        );
      }),
    );
    expect(results.filter((r) => r === 2)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(5);
    expect(await t.dataSource.getRepository(PageRevisionsTable).countBy({ pageId: page.id })).toBe(
      2,
    );
  });

  it('sequential writers each based on the latest revision all succeed', async () => {
    await createPage(editors[0], 'chain');
    for (let i = 1; i <= 5; i++) {
      await editors[i % 3]
        .put('/api/pages/chain')
        .set('If-Match', `"${i}"`)
        .send({ content: `step ${i}` })
        .expect(200);
    }
    const page = await editors[0].get('/api/pages/chain').expect(200);
    expect([page.body.revision, page.body.content]).toEqual([6, 'step 5']);
  });

  it('simultaneous creates of one slug: one 201, the rest 409', async () => {
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        editors[i % 3].post('/api/pages').send({ slug: 'same', title: `t${i}` }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(
      Array(N - 1).fill('slug_taken'),
    );
    expect(await t.dataSource.getRepository(PagesTable).countBy({ liveSlug: 'same' })).toBe(1);
  });
});
