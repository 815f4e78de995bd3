import { allItems, createPage, usePagesApp } from '../support/pages';
import { anonymous } from '../support/users';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

describe('GET /api/review-due', () => {
  const ctx = usePagesApp();

  it('lists live pages past their review date, oldest first, with their owners', async () => {
    const { admin, editor } = ctx;
    const owner = editor.user!.username;
    await createPage(editor, 'ops/newer', { owner, nextReviewAt: daysAgo(2) });
    await createPage(editor, 'ops/oldest', { owner: null, nextReviewAt: daysAgo(30) });
    await createPage(editor, 'ops/middle', { owner, nextReviewAt: daysAgo(10) });
    await createPage(editor, 'ops/future', { owner, nextReviewAt: daysAgo(-5) });
    await createPage(editor, 'ops/binned', { owner, nextReviewAt: daysAgo(40) });
    await editor.delete('/api/pages/ops/binned').expect(403);
    await admin.delete('/api/pages/ops/binned').expect(204);

    const first = (await admin.get('/api/review-due?limit=2').expect(200)).body;
    expect(first.items.map((p: { slug: string }) => p.slug)).toEqual(['ops/oldest', 'ops/middle']);
    expect(first.items[0]).toEqual({
      slug: 'ops/oldest',
      title: expect.any(String),
      owner: null,
      nextReviewAt: expect.stringMatching(/Z$/),
    });
    expect(first.items[1].owner).toBe(owner);
    expect(first.nextCursor).toEqual(expect.any(String));

    const all = await allItems(admin, '/api/review-due', 2);
    expect(all.map((p) => p.slug)).toEqual(['ops/oldest', 'ops/middle', 'ops/newer']);
  });

  it('is for administrators only', async () => {
    await ctx.editor.get('/api/review-due').expect(403);
    await ctx.reader.get('/api/review-due').expect(403);
    await anonymous(ctx.t).get('/api/review-due').expect(401);
    const bad = await ctx.admin.get('/api/review-due?cursor=nonsense!').expect(400);
    expect(bad.body.code).toBe('invalid_cursor');
  });
});
