import { allItems, createPage } from '../support/pages';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

/** A reader never learns the slug of a page they cannot see through deprecatedTarget (issue 9, item 11). */
describe('deprecatedTarget hides pages the reader cannot see', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'g2');
    admin = await signedIn(t, 'admin');
    await createPage(admin, 'hidden/merger-zebra', { groups: ['g2'] });
    await createPage(admin, 'old/guide', { deprecatedTarget: 'hidden/merger-zebra' });
  });

  it('answers null to readers outside the target’s groups, the slug to those inside', async () => {
    const outsider = await signedIn(t, 'reader');
    const editor = await signedIn(t, 'editor');
    const token = await outsider.withToken();
    for (const client of [outsider, editor, token]) {
      const res = await client.get('/api/pages/old/guide').expect(200);
      expect(res.body.deprecatedTarget).toBeNull();
      expect(res.text).not.toContain('merger-zebra');
      const [revision] = await allItems(client, '/api/revisions?slug=old/guide');
      const read = await client.get(`/api/revisions/${revision.id}`).expect(200);
      expect(read.body.metadata.deprecatedTarget).toBeNull();
      expect(read.text).not.toContain('merger-zebra');
    }
    const insider = await signedIn(t, 'reader', { groups: ['g2'] });
    const seen = await insider.get('/api/pages/old/guide').expect(200);
    expect(seen.body.deprecatedTarget).toBe('hidden/merger-zebra');
    // The stored value is untouched: the admin still reads it.
    const stored = await admin.get('/api/pages/old/guide').expect(200);
    expect(stored.body).toMatchObject({ deprecatedTarget: 'hidden/merger-zebra', revision: 1 });
  });

  it('keeps the hidden target when an editor who was shown null sends the whole page back', async () => {
    const editor = await signedIn(t, 'editor');
    const read = await editor.get('/api/pages/old/guide').expect(200);
    expect(read.body.deprecatedTarget).toBeNull();
    const { slug, title, content, tags, lifecycle, groups, deprecatedTarget, properties } =
      read.body as Record<string, unknown>;
    const put = await editor
      .put('/api/pages/old/guide')
      .set('If-Match', read.headers.etag as string)
      .send({
        slug,
        title,
        content: `${String(content)}\nEdited.`,
        tags,
        lifecycle,
        groups,
        deprecatedTarget,
        properties,
      })
      .expect(200);
    expect(put.body).toMatchObject({ revision: 2, deprecatedTarget: null });
    const stored = await admin.get('/api/pages/old/guide').expect(200);
    expect(stored.body).toMatchObject({ deprecatedTarget: 'hidden/merger-zebra', revision: 2 });

    // Someone who sees the target can still clear it with null.
    const insider = await signedIn(t, 'editor', { groups: ['g2'] });
    const seen = await insider.get('/api/pages/old/guide').expect(200);
    expect(seen.body.deprecatedTarget).toBe('hidden/merger-zebra');
    await insider
      .put('/api/pages/old/guide')
      .set('If-Match', seen.headers.etag as string)
      .send({ deprecatedTarget: null })
      .expect(200);
    const cleared = await admin.get('/api/pages/old/guide').expect(200);
    expect(cleared.body).toMatchObject({ deprecatedTarget: null, revision: 3 });
  });

  it('lets a null clear a target that is no live page any more', async () => {
    await admin.delete('/api/pages/hidden/merger-zebra').expect(204);
    const editor = await signedIn(t, 'editor');
    const read = await editor.get('/api/pages/old/guide').expect(200);
    await editor
      .put('/api/pages/old/guide')
      .set('If-Match', read.headers.etag as string)
      .send({ deprecatedTarget: null })
      .expect(200);
    const [row] = await t.dataSource.query(
      'SELECT deprecated_target FROM pages WHERE live_slug = ?',
      ['old/guide'],
    );
    expect(row.deprecated_target).toBeNull();
  });
});
