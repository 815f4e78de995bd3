import { parse, TestCase, TestSuites } from 'junit2json';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { anonymous, signedIn } from '../support/users';
import { testPng } from '../support/export-fixtures';
import { useImportApp, zip } from '../support/import-helpers';
import { finishedJob, manyPages, startJob } from '../support/import-jobs-helpers';

/** An upload with every kind of file outcome, and names that need XML escaping. */
function mixedUpload(): Buffer {
  return zip({
    'index.md': '# Index\n\nSee [the guide](guide.md) and ![logo](img/logo.png).\n',
    'guide.md': '# Guide\n\n[gone](missing.md) and ![lost](img/lost.png) and [also](nope.md).\n',
    'a&b <"x">.md': '# Odd name\n\nLinks to [q](q\u0001.md).\n',
    'untitled.md': 'no title at all\n',
    'img/logo.png': testPng(3, 8),
    'notes.txt': 'unreferenced notes',
  });
}

function cases(doc: TestSuites): Map<string, TestCase> {
  expect(doc.testsuite).toHaveLength(1);
  return new Map((doc.testsuite![0].testcase ?? []).map((c) => [c.name!, c]));
}

const ctx = useImportApp();

describe('GET /api/import/jobs/{id}/report', () => {
  it('renders the report as JUnit XML: one suite, one case per file, failures and skips with their reasons', async () => {
    const { admin } = ctx;
    await createPage(admin, 'docs/old', { title: 'Old', content: 'Not in the upload.' });
    const { id } = await startJob(admin, mixedUpload(), {
      prefix: 'docs',
      skipInvalid: 'true',
      mode: 'mirror',
    });
    const job = await finishedJob(admin, id);
    expect(job.state).toBe('succeeded');
    const res = await admin
      .get(`/api/import/jobs/${id}/report`)
      .set('Accept', 'application/xml')
      .buffer(true)
      .parse((r, done) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (body += chunk));
        r.on('end', () => done(null, body));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept/);
    const xml = res.body as string;
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    // No character XML 1.0 forbids, even though a link target held U+0001.
    // eslint-disable-next-line no-control-regex -- control characters are what is checked
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);

    const doc = await parse(xml);
    expect(doc).toBeDefined();
    const suites = doc as TestSuites;
    const suite = suites.testsuite![0];
    const byName = cases(suites);
    expect([...byName.keys()].sort()).toEqual([
      'a&b <"x">.md',
      'docs/old',
      'guide.md',
      'img/logo.png',
      'index.md',
      'notes.txt',
      'untitled.md',
    ]);
    expect(suite).toMatchObject({
      name: 'kb import markdown into docs (mirror)',
      tests: byName.size,
      failures: 2,
      errors: 0,
      skipped: 2,
    });
    expect(suites).toMatchObject({ tests: byName.size, failures: 2 });
    // A page with problems fails, all of them in its one failure.
    const guide = byName.get('guide.md')!;
    expect(guide.failure).toHaveLength(1);
    expect(guide.failure![0].message).toMatch(/^3 problems: /);
    expect(guide.failure![0].type).toBe('unresolved_link unresolved_image');
    expect(guide.failure![0].inner!.split('\n').sort()).toEqual([
      'unresolved_image: image img/lost.png, which is not in kb or the upload',
      'unresolved_link: link to missing.md, which is not in kb or the upload',
      'unresolved_link: link to nope.md, which is not in kb or the upload',
    ]);
    expect(guide['system-out']).toEqual(['docs/guide: created']);
    // The escaped name comes back as it was; its bad link target with U+FFFD for U+0001.
    const odd = byName.get('a&b <"x">.md')!;
    expect(odd.failure![0]).toMatchObject({
      type: 'unresolved_link',
      message: 'link to q\uFFFD.md, which is not in kb or the upload',
    });
    // Passing: a clean page, a stored image; the binned page says so.
    const index = byName.get('index.md')!;
    expect(index.failure).toBeUndefined();
    expect(index.skipped).toBeUndefined();
    expect(index['system-out']).toEqual(['docs/index: created']);
    expect(byName.get('img/logo.png')!['system-out']![0]).toMatch(
      /^stored as image \/api\/images\/[0-9a-f-]{36}\/content$/,
    );
    expect(byName.get('docs/old')!['system-out']).toEqual([
      'docs/old: moved to the bin (under the prefix, not in the upload)',
    ]);
    // Skipped with the reason: the invalid file and the file nothing uses.
    expect(byName.get('untitled.md')!.skipped).toEqual([
      { message: expect.stringMatching(/^missing_title: .*level-one heading/) },
    ]);
    expect(byName.get('notes.txt')!.skipped).toEqual([
      { message: expect.stringMatching(/^ignored: /) },
    ]);
    const properties = Object.fromEntries(suite.properties!.map((p) => [p.name, p.value]));
    expect(properties).toMatchObject({
      job: id,
      format: 'markdown',
      prefix: 'docs',
      mode: 'mirror',
      dryRun: 'false',
      // junit2json reads numeric values as numbers.
      'counts.created': 3,
      'counts.binned': 1,
      'counts.skipped': 1,
    });
  });

  it('answers JSON (the job report) without Accept, with application/json and */*; text/xml is XML too', async () => {
    const { admin } = ctx;
    const { id } = await startJob(admin, manyPages(2), { dryRun: 'true' });
    const job = await finishedJob(admin, id);
    for (const accept of [undefined, 'application/json', '*/*', 'application/*']) {
      const req = admin.get(`/api/import/jobs/${id}/report`);
      if (accept) req.set('Accept', accept);
      const res = await req.expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual(job.report);
    }
    const xml = await admin
      .get(`/api/import/jobs/${id}/report`)
      .set('Accept', 'text/html;q=0.9, text/xml')
      .buffer(true)
      .expect(200);
    expect(xml.headers['content-type']).toBe('text/xml; charset=utf-8');
    const suite = ((await parse(xml.text)) as TestSuites).testsuite![0];
    expect(suite).toMatchObject({ name: 'kb import markdown (dry run)', tests: 2 });
    expect(suite.testcase!.map((c) => c['system-out'])).toEqual([
      ['docs/page-0: would be created'],
      ['docs/page-1: would be created'],
    ]);
  });

  it('406 for other media types; 404 for unknown jobs; 409 while running and for a failure without per-file errors', async () => {
    const { admin, t } = ctx;
    const { id } = await startJob(admin, manyPages(1));
    await finishedJob(admin, id);
    const html = await admin
      .get(`/api/import/jobs/${id}/report`)
      .set('Accept', 'text/html')
      .expect(406);
    expect(html.body).toEqual(problem(406, 'not_acceptable'));
    const unknown = await admin
      .get('/api/import/jobs/00000000-0000-4000-8000-000000000000/report')
      .set('Accept', 'application/xml')
      .expect(404);
    expect(unknown.body).toEqual(problem(404, 'import_job_not_found'));

    // A job that failed without naming any file (interrupted: the row as the sweep leaves it).
    const failed = await startJob(admin, manyPages(1, 'interrupted'));
    await finishedJob(admin, failed.id);
    const interrupted = {
      type: 'https://kb.example/problems/import_interrupted',
      title: 'Internal Server Error',
      status: 500,
      detail: 'The kb instance running this import stopped before it finished.',
      instance: '/api/import',
      code: 'import_interrupted',
      jobId: failed.id,
    };
    await t.dataSource.query(
      "UPDATE import_jobs SET state = 'failed', report = NULL, problem = ? WHERE id = ?",
      [JSON.stringify(interrupted), failed.id],
    );
    expect((await admin.get(`/api/import/jobs/${failed.id}`).expect(200)).body).toMatchObject({
      state: 'failed',
      problem: { code: 'import_interrupted' },
    });
    for (const accept of ['application/xml', 'application/json']) {
      const none = await admin
        .get(`/api/import/jobs/${failed.id}/report`)
        .set('Accept', accept)
        .expect(409);
      expect(none.body).toEqual(problem(409, 'job_has_no_report', { state: 'failed' }));
    }

    // A cancelled job (its row as a cancel leaves it): no report either.
    const cancelled = await startJob(admin, manyPages(1, 'cancelled'));
    await finishedJob(admin, cancelled.id);
    await t.dataSource.query(
      "UPDATE import_jobs SET state = 'cancelled', report = NULL WHERE id = ?",
      [cancelled.id],
    );
    const gone = await admin
      .get(`/api/import/jobs/${cancelled.id}/report`)
      .set('Accept', 'application/xml')
      .expect(409);
    expect(gone.body).toEqual(problem(409, 'job_has_no_report', { state: 'cancelled' }));

    // A job not finished yet (its row as the runner leaves it while it runs).
    await t.dataSource.query("UPDATE import_jobs SET state = 'running' WHERE id = ?", [id]);
    const running = await admin
      .get(`/api/import/jobs/${id}/report`)
      .set('Accept', 'application/xml')
      .expect(409);
    expect(running.body).toEqual(problem(409, 'job_not_finished', { state: 'running' }));
  });

  it('a strict job refused for invalid files: JUnit names those files as failures; JSON stays 409', async () => {
    const { admin } = ctx;
    const { id } = await startJob(
      admin,
      zip({
        'ok.md': '# Fine\n\nNothing wrong here.\n',
        'x.md': 'no title',
        'a&b <"y">.md': 'no title either',
      }),
      { prefix: 'strict' },
    );
    const job = await finishedJob(admin, id);
    expect(job.state).toBe('failed');
    const res = await admin
      .get(`/api/import/jobs/${id}/report`)
      .set('Accept', 'application/xml')
      .buffer(true)
      .expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const suites = (await parse(res.text)) as TestSuites;
    const byName = cases(suites);
    // Only the refused files: nothing was written, so the valid page has no case.
    expect([...byName.keys()].sort()).toEqual(['a&b <"y">.md', 'x.md']);
    expect(suites.testsuite![0]).toMatchObject({
      name: 'kb import markdown into strict (failed)',
      tests: 2,
      failures: 2,
      errors: 0,
      skipped: 0,
    });
    for (const name of ['x.md', 'a&b <"y">.md']) {
      const failure = byName.get(name)!.failure!;
      expect(failure).toHaveLength(1);
      expect(failure[0].type).toBe('missing_title');
      expect(failure[0].message).toContain(`"${name}"`);
      expect(failure[0].message).toMatch(/level-one heading/);
    }
    const properties = Object.fromEntries(
      suites.testsuite![0].properties!.map((p) => [p.name, p.value]),
    );
    expect(properties).toMatchObject({
      job: id,
      format: 'markdown',
      prefix: 'strict',
      dryRun: 'false',
      problem: (job.problem as { code: string }).code,
    });

    // An upload that holds no document: the problem names the uploaded file, which fails.
    const empty = await startJob(admin, zip({ 'notes.txt': 'no documents here' }));
    expect((await finishedJob(admin, empty.id)).problem).toMatchObject({
      errors: [{ field: 'files[docs.zip]', code: 'no_documents' }],
    });
    const emptyXml = await admin
      .get(`/api/import/jobs/${empty.id}/report`)
      .set('Accept', 'text/xml')
      .buffer(true)
      .expect(200);
    const upload = cases((await parse(emptyXml.text)) as TestSuites).get('docs.zip')!;
    expect(upload.failure).toEqual([
      expect.objectContaining({ type: 'no_documents', message: expect.any(String) }),
    ]);
    const json = await admin.get(`/api/import/jobs/${id}/report`).expect(409);
    expect(json.body).toEqual(problem(409, 'job_has_no_report', { state: 'failed' }));
  });

  it('is for administrators only', async () => {
    const { admin, t } = ctx;
    const { id } = await startJob(admin, manyPages(1));
    await finishedJob(admin, id);
    await anonymous(t).get(`/api/import/jobs/${id}/report`).expect(401);
    const editor = await signedIn(t, 'editor');
    await editor.get(`/api/import/jobs/${id}/report`).set('Accept', 'application/xml').expect(403);
  });
});
