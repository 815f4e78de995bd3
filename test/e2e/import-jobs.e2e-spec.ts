import { createTestApp, TestApp } from '../support/test-app';
import { anonymous, Client, signedIn } from '../support/users';
import { count, postImport, zip } from '../support/import-helpers';
import {
  expectOrderedProgress,
  finishedJob,
  jobEvents,
  manyPages,
  startJob,
} from '../support/import-jobs-helpers';

describe('Import jobs (POST /api/import async=true, /api/import/jobs)', () => {
  let t: TestApp;
  let admin: Client;

  beforeAll(async () => {
    t = await createTestApp({ IMPORT_MAX_BYTES: String(2 * 1024 * 1024) });
  });
  afterAll(() => t?.close());
  beforeEach(async () => {
    await t.reset();
    admin = await signedIn(t, 'admin');
  });

  it('answers 202 with the job, streams ordered progress and ends with the report', async () => {
    const { id, body } = await startJob(admin, manyPages(400));
    expect(body).toMatchObject({ id, format: 'markdown', dryRun: false, report: null });
    expect(['queued', 'running']).toContain(body.state);
    expect(body.createdBy).toMatchObject({ username: admin.user!.username });

    const stream = await jobEvents(t, admin, id);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const { events } = stream;
    expect(events[0].event).toBe('state');
    const last = events[events.length - 1];
    expect(last.event).toBe('state');
    expect(events.filter((e) => e.event === 'state').length).toBeLessThanOrEqual(2);
    expectOrderedProgress(events);
    const phases = new Set(events.filter((e) => e.event === 'progress').map((e) => e.data.phase));
    expect(phases).toContain('writing pages');
    expect(last.data).toMatchObject({ id, state: 'succeeded', problem: null });
    expect(last.data.report.counts.created).toBe(400);
    expect(last.data.progress).toEqual({ phase: 'writing pages', done: 400, total: 400 });
    expect(last.data.startedAt).not.toBeNull();
    expect(last.data.finishedAt).not.toBeNull();

    const read = await admin.get(`/api/import/jobs/${id}`).expect(200);
    expect(read.body).toEqual(last.data);
    expect(await count(t, 'pages')).toBe(400);
    const page = await admin.get('/api/pages/docs/page-7').expect(200);
    expect(page.body.content).toContain('[next](/docs/page-8)');

    // The notification links to the job.
    const inbox = await admin.get('/api/notifications').expect(200);
    const notice = inbox.body.items.find((n: { kind: string }) => n.kind === 'import.finished');
    expect(notice.data.jobId).toBe(id);
  });

  it('gives a late client one state event with the finished job', async () => {
    const { id } = await startJob(admin, manyPages(3));
    const done = await finishedJob(admin, id);
    const { events } = await jobEvents(t, admin, id);
    expect(events).toEqual([{ event: 'state', data: done }]);
  });

  it('runs a dry run as a job: the plan, nothing written', async () => {
    await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'one.zip', data: manyPages(2) }],
    }).expect(200);
    const { id } = await startJob(admin, manyPages(5), { dryRun: 'true' });
    const job = await finishedJob(admin, id);
    expect(job).toMatchObject({ state: 'succeeded', dryRun: true });
    const report = job.report as { dryRun: boolean; counts: Record<string, number> };
    expect(report.dryRun).toBe(true);
    // page-1 linked to a page that did not exist then: its content changes.
    expect(report.counts).toMatchObject({ created: 3, unchanged: 1, replaced: 1 });
    expect(await count(t, 'pages')).toBe(2);
    expect(await count(t, 'page_revisions')).toBe(2);
  });

  it('cancels a running job while it writes: 202, then cancelled, nothing written', async () => {
    const { id } = await startJob(admin, manyPages(3000));
    let cancel: Promise<{ status: number; body: Record<string, unknown> }> | undefined;
    const { events } = await jobEvents(t, admin, id, (event) => {
      if (!cancel && event.event === 'progress' && event.data.phase === 'writing pages')
        cancel = admin.post(`/api/import/jobs/${id}/cancel`).then((r) => r);
    });
    const answer = await cancel!;
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id });
    const last = events[events.length - 1];
    expect(last).toMatchObject({ event: 'state', data: { state: 'cancelled', report: null } });
    expect(await count(t, 'pages')).toBe(0);
    expect(await count(t, 'page_revisions')).toBe(0);
    const again = await admin.post(`/api/import/jobs/${id}/cancel`).expect(409);
    expect(again.body.code).toBe('job_finished');
  });

  it('ends failed with the problem the synchronous import answers; nothing written', async () => {
    const bad = zip({ 'good.md': '# Good\n', 'bad.md': Buffer.from([0xff, 0xfe, 0x00]) });
    const { id } = await startJob(admin, bad);
    const job = await finishedJob(admin, id);
    const sync = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'docs.zip', data: bad }],
    }).expect(422);
    expect(job.state).toBe('failed');
    expect(job.problem).toMatchObject({
      status: 422,
      code: 'validation_failed',
      errors: sync.body.errors,
    });
    expect(await count(t, 'pages')).toBe(0);
  });

  it('keeps the limits: 413 and 422 at once when the request shows them, a failed job after', async () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 'a');
    const tooBig = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'big.md', data: big }],
      fields: { async: 'true' },
    }).expect(413);
    expect(tooBig.body.code).toBe('import_request_too_large');
    const noFormat = await postImport(admin, {
      files: [{ name: 'a.md', data: '# A' }],
      fields: { async: 'true' },
    }).expect(422);
    expect(noFormat.body.errors[0]).toMatchObject({ field: 'format', code: 'required' });
    const badAsync = await postImport(admin, {
      format: 'markdown',
      files: [{ name: 'a.md', data: '# A' }],
      fields: { async: 'maybe' },
    }).expect(422);
    expect(badAsync.body.errors[0]).toMatchObject({ field: 'async', code: 'invalid_boolean' });
    // A ZIP whose contents pass the budget is only known once it is unpacked.
    const bomb = zip({ 'a.md': `# A\n\n${'x'.repeat(3 * 1024 * 1024)}` });
    const { id } = await startJob(admin, bomb);
    const job = await finishedJob(admin, id);
    expect(job).toMatchObject({
      state: 'failed',
      problem: { status: 413, code: 'import_too_large' },
    });
    const list = await admin.get('/api/import/jobs').expect(200);
    expect(list.body.items.map((j: { id: string }) => j.id)).toEqual([id]);
    expect(await count(t, 'pages')).toBe(0);
  });

  it('lists jobs newest first, paged with the cursor', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { id } = await startJob(admin, manyPages(1, `f${i}`));
      await finishedJob(admin, id);
      ids.push(id);
    }
    const first = await admin.get('/api/import/jobs?limit=2').expect(200);
    expect(first.body.items.map((j: { id: string }) => j.id)).toEqual([ids[2], ids[1]]);
    const second = await admin
      .get(`/api/import/jobs?limit=2&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(second.body).toEqual({
      items: [expect.objectContaining({ id: ids[0] })],
      nextCursor: null,
    });
  });

  it('is for administrators: 403 for editors, 401 anonymous, 404 for an unknown job', async () => {
    const { id } = await startJob(admin, manyPages(1));
    await finishedJob(admin, id);
    const editor = await signedIn(t, 'editor');
    for (const client of [editor, anonymous(t)]) {
      const status = client === editor ? 403 : 401;
      await client.get('/api/import/jobs').expect(status);
      await client.get(`/api/import/jobs/${id}`).expect(status);
      await client.get(`/api/import/jobs/${id}/events`).expect(status);
      await client.post(`/api/import/jobs/${id}/cancel`).expect(status);
      await postImport(client, {
        format: 'markdown',
        files: [{ name: 'a.md', data: '# A' }],
        fields: { async: 'true' },
      }).expect(status);
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await admin.get(`/api/import/jobs/${missing}`).expect(404);
    expect(res.body.code).toBe('import_job_not_found');
    await admin.get(`/api/import/jobs/${missing}/events`).expect(404);
    await admin.post(`/api/import/jobs/${missing}/cancel`).expect(404);
  });
});
