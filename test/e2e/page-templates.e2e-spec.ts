import { insertStarterTemplates } from '../../src/common/database/starter-templates';
import { fieldErrors, problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, createGroup, signedIn } from '../support/users';

describe('page templates: /api/templates and POST /api/pages with template', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;
  let reader: Client;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.reset();
    await createGroup(t, 'ops');
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor', { groups: ['ops'] });
    reader = await signedIn(t, 'reader');
  });

  const RUNBOOK = {
    name: 'svc-runbook',
    title: 'Service runbook',
    description: 'For one service',
    content: '# {{title}}\n\nService {{ service }} by {{author}} on {{date}}; {{company}} stays.\n',
    fields: [{ name: 'service', label: 'Service' }],
    tags: ['runbook'],
    groups: ['ops'],
    owner: null,
    reviewIntervalDays: 30,
    lifecycle: 'draft',
  };

  it('ships the starter set, which administrators may edit and remove', async () => {
    const runner = t.dataSource.createQueryRunner();
    await insertStarterTemplates(runner);
    await runner.release();
    const list = (await editor.get('/api/templates').expect(200)).body;
    expect(list.nextCursor).toBeNull();
    expect(list.items.map((i: { name: string }) => i.name)).toEqual([
      'decision-record',
      'how-to',
      'meeting-notes',
      'runbook',
    ]);
    const runbook = list.items.find((i: { name: string }) => i.name === 'runbook');
    expect(runbook).toEqual({
      name: 'runbook',
      title: 'Runbook',
      description: expect.any(String),
      content: expect.stringContaining('Service: **{{service}}**'),
      fields: [{ name: 'service', label: 'Service' }],
      tags: ['runbook'],
      groups: [],
      owner: null,
      reviewIntervalDays: 90,
      lifecycle: null,
      updatedAt: expect.any(String),
    });
    const edited = await admin
      .put('/api/templates/runbook')
      .send({ title: 'Our runbook', content: 'Steps for {{service}}', fields: runbook.fields })
      .expect(200);
    expect(edited.body).toMatchObject({ name: 'runbook', title: 'Our runbook', tags: [] });
    await admin.delete('/api/templates/meeting-notes').expect(204);
    const after = (await admin.get('/api/templates').expect(200)).body.items;
    expect(after.map((i: { name: string }) => i.name)).toEqual([
      'decision-record',
      'how-to',
      'runbook',
    ]);
    const [row] = await t.dataSource.query('SELECT title FROM page_templates WHERE name = ?', [
      'runbook',
    ]);
    expect(row.title).toBe('Our runbook');
  });

  it('keeps templates for administrators and editors only, with coded problems', async () => {
    await anonymous(t).get('/api/templates').expect(401);
    await reader.get('/api/templates').expect(403);
    await reader.post('/api/templates').send(RUNBOOK).expect(403);
    await reader.delete('/api/templates/x').expect(403);
    const created = await editor.post('/api/templates').send(RUNBOOK).expect(201);
    expect(created.headers.location).toBe('/api/templates/svc-runbook');
    expect(created.body).toEqual({ ...RUNBOOK, updatedAt: expect.any(String) });
    expect((await editor.post('/api/templates').send(RUNBOOK).expect(409)).body).toEqual(
      problem(409, 'template_exists'),
    );
    const bad = await editor
      .post('/api/templates')
      .send({ ...RUNBOOK, name: 'Bad Name', fields: [{ name: 'date', label: 'x' }] })
      .expect(422);
    expect(bad.body).toEqual(
      fieldErrors(
        { field: 'name', code: 'invalid_name' },
        { field: 'fields.0.name', code: 'invalid_field' },
      ),
    );
    await editor.post('/api/templates').send({ name: 'x' }).expect(422);
    const { name: _name, ...body } = RUNBOOK;
    expect((await editor.put('/api/templates/nope').send(body).expect(404)).body).toEqual(
      problem(404, 'template_not_found'),
    );
    await editor.delete('/api/templates/nope').expect(404);
  });

  it('creates a page from a template: placeholders filled, presets applied, values checked', async () => {
    await editor.post('/api/templates').send(RUNBOOK).expect(201);
    const res = await editor
      .post('/api/pages')
      .send({
        slug: 'ops/api-runbook',
        title: 'API runbook',
        template: 'svc-runbook',
        values: { service: 'api' },
      })
      .expect(201);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.body.content).toBe(
      `# API runbook\n\nService api by ${editor.user!.username} on ${today}; {{company}} stays.\n`,
    );
    expect(res.body).toMatchObject({
      tags: ['runbook'],
      groups: ['ops'],
      reviewIntervalDays: 30,
      lifecycle: 'draft',
    });
    // The request's own fields win over the presets.
    const own = await editor
      .post('/api/pages')
      .send({
        slug: 'ops/other',
        title: 'Other',
        template: 'svc-runbook',
        values: { service: 'db' },
        tags: ['mine'],
        lifecycle: 'published',
      })
      .expect(201);
    expect(own.body).toMatchObject({ tags: ['mine'], lifecycle: 'published', groups: ['ops'] });

    const missing = await editor
      .post('/api/pages')
      .send({ slug: 'x', title: 'X', template: 'svc-runbook', values: { other: 'y' } })
      .expect(422);
    expect(missing.body).toEqual(
      fieldErrors(
        { field: 'values.other', code: 'unknown_field' },
        { field: 'values.service', code: 'missing_value' },
      ),
    );
    const unknown = await editor
      .post('/api/pages')
      .send({ slug: 'x', title: 'X', template: 'nope' })
      .expect(422);
    expect(unknown.body).toEqual(fieldErrors({ field: 'template', code: 'unknown_template' }));
    await editor
      .post('/api/pages')
      .send({ slug: 'x', title: 'X', values: { a: 'b' } })
      .expect(422);
    const [{ n }] = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM pages WHERE live_slug = 'x'",
    );
    expect(Number(n)).toBe(0);
  });
});
