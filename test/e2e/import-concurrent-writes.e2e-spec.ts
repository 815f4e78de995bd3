import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';
import { createPage } from '../support/pages';
import type { StreamEvent } from '../support/event-stream';
import { count } from '../support/import-helpers';
import { jobEvents, manyPages, startJob } from '../support/import-jobs-helpers';

const PAGES = 2000;
const EDITS = 12;

/**
 * A big import writes all its pages in one transaction, in slices that yield to the event
 * loop. Meanwhile the service answers (/healthz) and other writes wait for the import's
 * transaction (SQLite: one writer) without giving up, and nothing of either is lost.
 */
describe('Import: writes and health checks while a big import writes', () => {
  let t: TestApp;
  let admin: Client;
  let editor: Client;

  beforeAll(async () => {
    t = await createTestApp({ IMPORT_MAX_BYTES: String(16 * 1024 * 1024) });
    admin = await signedIn(t, 'admin');
    editor = await signedIn(t, 'editor');
  });
  afterAll(() => t?.close());

  it('a write during an import waits correctly and loses nothing; /healthz answers meanwhile', async () => {
    for (let i = 0; i < EDITS; i++) await createPage(editor, `busy-${i}`, { content: 'before' });
    const order: string[] = [];
    let started = false;
    const edits: Promise<{ status: number; slug: string }>[] = [];
    const health: Promise<number>[] = [];
    const duringWrites = () => {
      // The import is writing its pages: edit other pages and ask /healthz now.
      for (let i = 0; i < EDITS; i++)
        edits.push(
          editor
            .put(`/api/pages/busy-${i}`)
            .set('If-Match', '"1"')
            .send({ content: `edited during the import ${i}` })
            .then((res) => {
              order.push('edit');
              return { status: res.status, slug: `busy-${i}` };
            }),
        );
      health.push(
        anonymous(t)
          .get('/healthz')
          .then((res) => {
            order.push('healthz');
            return res.status;
          }),
      );
    };

    const { id } = await startJob(admin, manyPages(PAGES));
    const stream = await jobEvents(t, admin, id, (event: StreamEvent) => {
      const data = event.data as { phase?: string; done?: number; state?: string };
      if (
        !started &&
        event.event === 'progress' &&
        data.phase === 'writing pages' &&
        data.done! > 0
      ) {
        started = true;
        duringWrites();
      }
      if (event.event === 'state' && ['succeeded', 'failed', 'cancelled'].includes(data.state!))
        order.push('import finished');
    });
    expect(started).toBe(true);
    const last = stream.events[stream.events.length - 1];
    expect(last.data).toMatchObject({ state: 'succeeded' });
    expect((last.data as { report: { counts: { created: number } } }).report.counts.created).toBe(
      PAGES,
    );

    await expect(Promise.all(health)).resolves.toEqual([200]);
    const answers = await Promise.all(edits);
    // /healthz was answered while the import was still writing.
    expect(order.indexOf('healthz')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('healthz')).toBeLessThan(order.indexOf('import finished'));
    // Every write that waited for the import succeeded and is stored.
    expect(answers.map((a) => a.status)).toEqual(Array(EDITS).fill(200));
    for (let i = 0; i < EDITS; i++) {
      const page = await editor.get(`/api/pages/busy-${i}`).expect(200);
      expect([page.body.revision, page.body.content]).toEqual([2, `edited during the import ${i}`]);
    }
    expect(await count(t, 'pages')).toBe(PAGES + EDITS);
    const sample = await admin.get(`/api/pages/docs/page-${PAGES - 1}`).expect(200);
    expect(sample.body.title).toBe(`Page ${PAGES - 1}`);
  }, 300_000);
});
