import { fieldErrors, problem } from '../support/problems';
import { usePagesApp, createPage, updatePage } from '../support/pages';
import { RenderPool } from '../../src/pages/rendering/render-pool';
import { PagesService } from '../../src/pages/pages.service';
import { SiteVariablesService } from '../../src/pages/site-variables.service';

describe('pages: variables, rendering cache and preview', () => {
  const c = usePagesApp();

  it('site-wide variables: read by anyone signed in, replaced by admins, validated', async () => {
    await c.reader.get('/api/variables').expect(200, { variables: {} });
    await c.admin
      .put('/api/variables')
      .send({ variables: { company: 'ACME', support_mail: 'help@acme.test' } })
      .expect(200, { variables: { company: 'ACME', support_mail: 'help@acme.test' } });
    await c.reader
      .get('/api/variables')
      .expect(200, { variables: { company: 'ACME', support_mail: 'help@acme.test' } });
    await c.admin
      .put('/api/variables')
      .send({ variables: { 'no spaces': 'x', n: 1, long: 'x'.repeat(10_001) } })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [
              {
                field: 'variables.no spaces',
                code: 'invalid_variable_name',
                message: expect.any(String),
              },
              { field: 'variables.n', code: 'not_a_string', message: expect.any(String) },
              { field: 'variables.long', code: 'value_too_long', message: expect.any(String) },
            ],
          }),
        ),
      );
    await c.admin
      .put('/api/variables')
      .send({ variables: 'x' })
      .expect(400)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(400, 'invalid_type', {
            errors: [
              { field: 'variables', code: 'is_object', message: 'variables must be an object' },
            ],
          }),
        ),
      );
    await c.admin.put('/api/variables').send({}).expect(422);
    await c.admin.put('/api/variables').send({ variables: {} }).expect(200, { variables: {} });
  });

  it('resolves page values over site-wide ones; unknown names stay; re-renders when site values change', async () => {
    await c.admin
      .put('/api/variables')
      .send({ variables: { company: 'ACME', product: 'Widget' } })
      .expect(200);
    await createPage(c.editor, 'doc', {
      content: '{{company}} sells {{ product }} to {{customer}}.',
      variables: { product: 'Gadget' },
    });
    const first = await c.reader.get('/api/pages/doc').expect(200);
    expect(first.body.html).toBe('<p>ACME sells Gadget to {{customer}}.</p>\n');
    expect(first.body.content).toBe('{{company}} sells {{ product }} to {{customer}}.');

    await c.admin
      .put('/api/variables')
      .send({ variables: { company: 'Initech', customer: 'you' } })
      .expect(200);
    const second = await c.reader.get('/api/pages/doc').expect(200);
    expect(second.body.html).toBe('<p>Initech sells Gadget to you.</p>\n');
    expect(second.body.revision).toBe(1);
    expect(second.headers.etag).toBe('"1"');
    await c.reader
      .get('/api/pages/doc/raw')
      .expect(200)
      .expect((r) => expect(r.text).toBe('{{company}} sells {{ product }} to {{customer}}.'));

    const pages = c.t.get(PagesService);
    const siteVariables = c.t.get(SiteVariablesService);
    const page = await pages.getVisible('doc', {
      id: c.admin.user!.id,
      username: 'a',
      displayName: 'a',
      role: 'admin',
      groups: [],
      via: 'session',
    });
    expect(await siteVariables.resolveVariables(page)).toEqual({
      company: 'Initech',
      customer: 'you',
      product: 'Gadget',
    });
    expect((await siteVariables.usableVariableNames(page)).sort()).toEqual([
      'company',
      'customer',
      'product',
    ]);
    await updatePage(c.editor, 'doc', { content: 'Only {{company}} and {{undefined_one}}.' });
    expect(
      await siteVariables.usableVariableNames(
        await pages.getVisible('doc', {
          id: c.admin.user!.id,
          username: 'a',
          displayName: 'a',
          role: 'admin',
          groups: [],
          via: 'session',
        }),
      ),
    ).toEqual(['company']);
  });

  it('page reads use the HTML stored on write: no Markdown rendering per request', async () => {
    await createPage(c.editor, 'hot', { content: '# Hot\n\n' + 'text '.repeat(2000) });
    const spy = jest.spyOn(c.t.get(RenderPool), 'renderPage');
    try {
      for (let i = 0; i < 5; i++) await c.reader.get('/api/pages/hot').expect(200);
      expect(spy).not.toHaveBeenCalled();
      await c.admin
        .put('/api/variables')
        .send({ variables: { a: 'b' } })
        .expect(200);
      for (let i = 0; i < 3; i++) await c.reader.get('/api/pages/hot').expect(200);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('preview renders unsaved Markdown with site-wide and request variables, stores nothing', async () => {
    await c.admin
      .put('/api/variables')
      .send({ variables: { company: 'ACME', who: 'site' } })
      .expect(200);
    const res = await c.editor
      .post('/api/preview')
      .send({
        content: '# Hi {{who}}\n\n{{company}} [next](next) {{missing}}',
        variables: { who: 'preview' },
        slug: 'docs/page',
      })
      .expect(200);
    expect(res.body).toEqual({
      html: '<h1 id="hi-preview">Hi preview</h1>\n<p>ACME <a href="/docs/next">next</a> {{missing}}</p>\n',
    });
    await c.editor.get('/api/pages').expect(200, { items: [], nextCursor: null });
    await c.admin
      .get('/api/variables')
      .expect(200, { variables: { company: 'ACME', who: 'site' } });
  });

  it('preview refuses bad input', async () => {
    await c.editor
      .post('/api/preview')
      .send({})
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'content', code: 'is_string' })));
    await c.editor
      .post('/api/preview')
      .send({ content: 'x', variables: { ok: 'x', bad: 3 } })
      .expect(422)
      .expect((r) =>
        expect(r.body).toEqual(
          problem(422, 'validation_failed', {
            errors: [{ field: 'variables.bad', code: 'not_a_string', message: expect.any(String) }],
          }),
        ),
      );
    await c.editor
      .post('/api/preview')
      .send({ content: 'x', slug: 'a//b' })
      .expect(422)
      .expect((r) => expect(r.body).toEqual(fieldErrors({ field: 'slug', code: 'invalid_slug' })));
    await c.editor
      .post('/api/preview')
      .send({ content: 'x'.repeat(2 * 1024 * 1024 + 1) })
      .expect(413);
    await c.editor
      .post('/api/preview')
      .set('Content-Type', 'application/json')
      .send('[1,2]')
      .expect(400);
  });
});
