import { problem } from '../support/problems';
import { createTestApp, DB_TYPE, TestApp } from '../support/test-app';
import { signedIn } from '../support/users';

/** The value of one sample line (`name{labels} value`) in a Prometheus text body, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers this machine without credentials, in the Prometheus text format', async () => {
    const admin = await signedIn(t, 'admin');
    await admin.get('/api/pages').expect(200);
    await admin.get('/api/pages').expect(200);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;/);
    expect(res.headers['content-type']).toContain('version=0.0.4');
    expect(res.headers['cache-control']).toBe('no-store');
    const text = res.text;
    expect(text).toContain('# TYPE kb_http_requests_total counter');
    expect(
      sample(text, 'kb_http_requests_total', 'method="GET",route="/api/pages",status="200"'),
    ).toBe(2);
    expect(
      sample(text, 'kb_http_request_duration_seconds_count', 'method="GET",route="/api/pages"'),
    ).toBe(2);
    for (const quantile of ['0.5', '0.99', '1']) {
      const delay = sample(text, 'kb_event_loop_delay_seconds', `quantile="${quantile}"`);
      expect(delay).toBeGreaterThanOrEqual(0);
    }
    const pool = DB_TYPE === 'mysql' ? 'mysql' : 'sqlite_writer';
    expect(sample(text, 'kb_db_pool_queue_length', `pool="${pool}"`)).toBe(0);
    expect(sample(text, 'kb_db_pool_active', `pool="${pool}"`)).toBeGreaterThanOrEqual(0);
  });

  it('asks a request forwarded by a proxy for an administrator', async () => {
    await t
      .http()
      .get('/metrics')
      .set('X-Forwarded-For', '203.0.113.9')
      .expect(401)
      .expect((r) => expect(r.body).toEqual(problem(401, 'unauthenticated')));
    const editor = await signedIn(t, 'editor');
    await editor
      .get('/metrics')
      .set('X-Forwarded-For', '203.0.113.9')
      .expect(403)
      .expect((r) => expect(r.body.code).toBe('insufficient_role'));
    const admin = await signedIn(t, 'admin');
    const res = await admin.get('/metrics').set('Forwarded', 'for=203.0.113.9').expect(200);
    expect(res.text).toContain('kb_event_loop_delay_seconds');
  });
});
