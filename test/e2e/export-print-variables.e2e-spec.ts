import { createGroup, signedIn } from '../support/users';
import { createPage, usePagesApp } from '../support/pages';
import { problem } from '../support/problems';

describe('GET /export/variables/{slug}: what the print dialog may override', () => {
  const c = usePagesApp();

  it('lists the used page and site-wide variables with their saved values, in order of use', async () => {
    await c.admin
      .put('/api/variables')
      .send({ variables: { company: 'KB Inc', unused_site: 'x', customer: 'Site default' } })
      .expect(200);
    await createPage(c.editor, 'offers/q1', {
      content:
        'Dear {{customer}} of {{ region }}, from {{company}}. {{undefined_name}} {{customer}}',
      variables: { customer: 'ACME', region: 'EMEA', unused_page: 'y' },
    });
    const res = await c.reader.get('/export/variables/offers/q1').expect(200);
    expect(res.body).toEqual({
      variables: [
        { name: 'customer', value: 'ACME', source: 'page' },
        { name: 'region', value: 'EMEA', source: 'page' },
        { name: 'company', value: 'KB Inc', source: 'site' },
      ],
    });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('answers an empty list for a page without variables', async () => {
    await createPage(c.editor, 'plain');
    const res = await c.reader.get('/export/variables/plain').expect(200);
    expect(res.body).toEqual({ variables: [] });
  });

  it('is for browser sessions only and follows page visibility', async () => {
    await createGroup(c.t, 'finance');
    const member = await signedIn(c.t, 'editor', { groups: ['finance'] });
    await createPage(member, 'budget', {
      groups: ['finance'],
      content: '{{x}}',
      variables: { x: '1' },
    });
    await c.reader
      .get('/export/variables/budget')
      .expect(404)
      .expect((res) => expect(res.body).toEqual(problem(404, 'page_not_found')));
    await member.get('/export/variables/budget').expect(200);
    const token = await member.withToken();
    await token
      .get('/export/variables/budget')
      .expect(401)
      .expect((res) => expect(res.body).toEqual(problem(401, 'session_required')));
    await c.t.http().get('/export/variables/budget').expect(401);
  });
});
