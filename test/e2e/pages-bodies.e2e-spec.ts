import { AuthUser } from '../../src/common/auth/auth-user';
import { Database } from '../../src/common/database/database';
import { PageWriterService } from '../../src/pages/page-writer.service';
import { problem, validationProblem } from '../support/problems';
import { allItems, createPage, expectedPage, newPage, usePagesApp } from '../support/pages';
import { createGroup } from '../support/users';

const EMPTY_SEGMENT = {
  field: 'slug',
  code: 'slug_empty_segment',
  message: expect.any(String),
};

/** Request bodies: slug fields as written, and a page sent back as it was read. */
describe('pages: request bodies', () => {
  const c = usePagesApp();

  it('a slug with a leading or trailing "/" is 422 slug_empty_segment, like "a//b"', async () => {
    for (const slug of ['/lead', 'trail/', '/both/', ' /Spaced ', 'a//b', '/']) {
      await c.editor
        .post('/api/pages')
        .send(newPage(slug))
        .expect(422)
        .expect((r) => expect(r.body).toEqual(validationProblem(EMPTY_SEGMENT)));
    }
    expect(await allItems(c.reader, '/api/pages')).toEqual([]);
    await createPage(c.editor, 'docs/page');
    await c.editor
      .put('/api/pages/docs/page')
      .send({ baseRevision: 1, slug: 'docs/moved/' })
      .expect(422)
      .expect((r) => expect(r.body).toEqual(validationProblem(EMPTY_SEGMENT)));
    // Paths in URLs are routing: surrounding slashes there still address the page.
    await c.reader.get('/api/pages/docs/page/').expect(200);
    await c.editor
      .put('/api/pages/docs/page/')
      .send({ baseRevision: 1, title: 'Via trailing slash' })
      .expect(200);
    const read = await c.reader.get('/api/pages/docs/page').expect(200);
    expect(read.body).toEqual(expect.objectContaining({ slug: 'docs/page', revision: 2 }));
  });

  it('deprecatedTarget follows the same rules', async () => {
    await createPage(c.editor, 'target');
    for (const deprecatedTarget of ['/target', 'target/', 'a//target']) {
      await c.editor
        .post('/api/pages')
        .send(newPage('old', { lifecycle: 'deprecated', deprecatedTarget }))
        .expect(422)
        .expect((r) =>
          expect(r.body).toEqual(
            validationProblem({ ...EMPTY_SEGMENT, field: 'deprecatedTarget' }),
          ),
        );
    }
    await c.editor
      .post('/api/pages')
      .send(newPage('old', { deprecatedTarget: 'a/../target' }))
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          validationProblem({
            field: 'deprecatedTarget',
            code: 'slug_dot_segment',
            message: expect.any(String),
          }),
        ),
      );
    const created = await createPage(c.editor, 'old', { deprecatedTarget: ' Target ' });
    expect(created.deprecatedTarget).toBe('target');
  });

  it('preview and import refuse slugs with surrounding slashes too', async () => {
    await c.editor
      .post('/api/preview')
      .send({ content: 'x', slug: '/docs/a' })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          validationProblem({ field: 'slug', code: 'invalid_slug', message: expect.any(String) }),
        ),
      );
    const actor: AuthUser = {
      id: c.admin.user!.id,
      username: c.admin.user!.username,
      displayName: 'a',
      role: 'admin',
      groups: [],
      via: 'session',
    };
    await expect(
      c.t
        .get(Database)
        .transaction((tx) =>
          c.t
            .get(PageWriterService)
            .upsertImported(tx, { slug: 'imported/', title: 'I', content: '' }, actor),
        ),
    ).rejects.toEqual(expect.objectContaining({ status: 422, errors: [EMPTY_SEGMENT] }));
  });

  it('PUT accepts the body exactly as read (plus baseRevision), ignoring read-only members', async () => {
    await createGroup(c.t, 'ops');
    await createPage(c.admin, 'target');
    await createPage(c.admin, 'linker', { content: 'See [doc](/runbooks/doc).' });
    await createPage(c.admin, 'runbooks/doc', {
      content: 'Deploy {{env}}.',
      icon: '🚀',
      language: 'en-GB',
      tags: ['ops'],
      lifecycle: 'deprecated',
      owner: c.editor.user!.username,
      reviewIntervalDays: 30,
      groups: ['ops'],
      deprecatedTarget: 'target',
      properties: { tier: 1 },
      variables: { env: 'prod' },
      verified: true,
    });
    const read = (await c.admin.get('/api/pages/runbooks/doc').expect(200)).body;
    expect(read.backlinks).toEqual([{ slug: 'linker', title: 'Title of linker' }]);

    // Unchanged: answers the page, no new revision.
    const same = await c.admin
      .put('/api/pages/runbooks/doc')
      .send({ ...read, baseRevision: read.revision })
      .expect(200);
    expect(same.body).toEqual(read);

    // Changed: read-only members (even stale or nonsense values) are ignored.
    const edited = await c.admin
      .put('/api/pages/runbooks/doc')
      .send({
        ...read,
        title: 'Doc, edited',
        baseRevision: read.revision,
        revision: 99,
        html: '<script>alert(1)</script>',
        updatedBy: 'somebody-else',
        createdAt: 'yesterday',
        backlinks: 'none',
      })
      .expect(200);
    expect(edited.headers.etag).toBe('"2"');
    expect(edited.body).toEqual(
      expectedPage({
        ...read,
        title: 'Doc, edited',
        revision: 2,
        createdAt: read.createdAt,
        updatedAt: expect.any(String),
        updatedBy: c.admin.user!.username,
        html: '<p>Deploy prod.</p>\n',
      }),
    );
    const revisions = await allItems(c.admin, '/api/revisions?slug=runbooks/doc');
    expect(revisions.map((r) => r.revision)).toEqual([2, 1]);

    // Other unknown members are still refused.
    await c.admin
      .put('/api/pages/runbooks/doc')
      .send({ ...edited.body, baseRevision: 2, id: 'x', extra: true })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: expect.arrayContaining([
              expect.objectContaining({ field: 'id', code: 'unknown_field' }),
              expect.objectContaining({ field: 'extra', code: 'unknown_field' }),
            ]),
          }),
        ),
      );
  });

  it('POST accepts a page as read under a new slug (a copy)', async () => {
    await createPage(c.editor, 'original', { tags: ['a'], properties: { k: 'v' } });
    const read = (await c.editor.get('/api/pages/original').expect(200)).body;
    const copy = await c.editor
      .post('/api/pages')
      .send({ ...read, slug: 'copy' })
      .expect(201);
    expect(copy.body).toEqual(
      expectedPage({
        ...read,
        slug: 'copy',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      }),
    );
    await c.editor
      .post('/api/pages')
      .send({ ...read, slug: 'copy2', unknown: 1 })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          validationProblem({
            field: 'unknown',
            code: 'unknown_field',
            message: expect.any(String),
          }),
        ),
      );
  });
});
