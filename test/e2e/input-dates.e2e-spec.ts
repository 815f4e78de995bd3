import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/**
 * Issue 9 item 12: dates in request bodies are strict ISO 8601 within 1970..9999, read the same
 * on SQLite and MariaDB: no rolling over of impossible days, no year 0001 turned into 2001.
 */
describe('input dates: strict ISO 8601 within the supported range', () => {
  let t: TestApp;
  let editor: Client;
  beforeAll(async () => {
    t = await createTestApp();
  });
  beforeEach(async () => {
    await t.reset();
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t.close());

  const invalidDate = (field: string) =>
    problem(422, 'validation_failed', {
      errors: [{ field, code: 'invalid_date', message: expect.stringContaining('ISO 8601') }],
    });

  it.each([
    ['an impossible day', '2026-02-30'],
    ['February 29 of a common year', '2027-02-29T10:00:00Z'],
    ['year 0001', '0001-01-01T00:00:00Z'],
    ['a year before 1970', '1969-07-20'],
    ['hour 24', '2026-05-01T24:00:00Z'],
    ['a date in other words', 'May 1, 2026'],
    ['a six-digit year', '+275760-09-13T00:00:00Z'],
  ])(
    'nextReviewAt with %s answers 422 invalid_date; create and update write nothing',
    async (_label, value) => {
      const created = await editor
        .post('/api/pages')
        .send({ slug: 'dates/new', title: 'T', content: 'x', nextReviewAt: value });
      expect(created.status).toBe(422);
      expect(created.body).toEqual(invalidDate('nextReviewAt'));
      expect((await editor.get('/api/pages/dates/new')).status).toBe(404);

      const page = await createPage(editor, 'dates/one', { nextReviewAt: '2026-06-01' });
      const res = await editor
        .put('/api/pages/dates/one')
        .send({ nextReviewAt: value, baseRevision: page.revision });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidDate('nextReviewAt'));
      const after = (await editor.get('/api/pages/dates/one').expect(200)).body;
      expect(after.revision).toBe(page.revision);
      expect(after.nextReviewAt).toBe('2026-06-01T00:00:00.000Z');
    },
  );

  it.each([
    ['a date', '2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['a date-time with an offset', '2026-03-01T01:30:00+02:00', '2026-02-28T23:30:00.000Z'],
    ['a date-time without offset (UTC)', '2026-03-01T10:20:30', '2026-03-01T10:20:30.000Z'],
    ['the first supported instant', '1970-01-01T00:00:00Z', '1970-01-01T00:00:00.000Z'],
    ['the last supported instant', '9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ])('nextReviewAt %s is stored and read back exactly', async (_label, value, stored) => {
    const page = await createPage(editor, 'dates/ok', { nextReviewAt: value });
    expect(page.nextReviewAt).toBe(stored);
    expect((await editor.get('/api/pages/dates/ok').expect(200)).body.nextReviewAt).toBe(stored);
  });

  it.each([
    ['an impossible day', '2099-02-30T00:00:00Z'],
    ['year 10000', '10000-01-01T00:00:00Z'],
  ])('a token expiresAt with %s is refused (422); no token', async (_label, expiresAt) => {
    const res = await editor.post('/api/tokens').send({ name: 'dated', expiresAt });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'expiresAt' })]);
    expect((await editor.get('/api/tokens').expect(200)).body.items).toEqual([]);
  });

  it('a token expiring on the last supported day is kept exactly', async () => {
    const res = await editor
      .post('/api/tokens')
      .send({ name: 'long', expiresAt: '9999-12-31T00:00:00Z' })
      .expect(201);
    expect(res.body.expiresAt).toBe('9999-12-31T00:00:00.000Z');
  });
});
