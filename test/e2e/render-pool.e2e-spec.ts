import { MIN_OFFLOADED_CHARS, RenderPool } from '../../src/pages/rendering/render-pool';
import { eventually } from '../support/eventually';
import { createTestApp, TestApp } from '../support/test-app';
import { Client, signedIn } from '../support/users';

/** A page long enough to be rendered by a worker, using what the renderer does. */
const LONG_PAGE = [
  '# Release handbook',
  '',
  'Shipped by {{company}}. See [the checklist](checklist) and [an anchor](/guide/checklist#top).',
  '',
  '> [!WARNING]',
  '> Never release on a Friday.',
  '',
  '| Step | Owner |',
  '| :--- | ---: |',
  '| Tag | release team |',
  '',
  '- [x] changelog written',
  '- [ ] announcement sent',
  '',
  '```ts',
  'const answer = 42;',
  '```',
  '',
  '<script>alert("x")</script><a href="javascript:alert(1)" onclick="steal()">bad link</a>',
  '',
  ...Array.from(
    { length: 30 },
    (_, i) => `Paragraph ${i}: the release train leaves on schedule, whatever is aboard.`,
  ),
].join('\n');

/** Creates the page set of the test in `t`: a target page and the long page linking to it. */
async function writePages(admin: Client): Promise<void> {
  await admin
    .put('/api/variables')
    .send({ variables: { company: 'Acme' } })
    .expect(200);
  await admin
    .post('/api/pages')
    .send({ slug: 'guide/checklist', title: 'Checklist', content: 'Short.' })
    .expect(201);
  await admin
    .post('/api/pages')
    .send({ slug: 'guide/release', title: 'Release', content: LONG_PAGE })
    .expect(201);
  const page = await admin.get('/api/pages/guide/release').expect(200);
  await admin
    .put('/api/pages/guide/release')
    .set('If-Match', page.headers.etag)
    .send({ title: 'Release', content: `${LONG_PAGE}\n\nEdited by {{company}}.` })
    .expect(200);
}

describe('Markdown renders in worker threads', () => {
  let pooled: TestApp;
  let inline: TestApp;

  beforeAll(async () => {
    pooled = await createTestApp({ KB_RENDER_WORKERS: '1' });
    inline = await createTestApp({ KB_RENDER_WORKERS: '0' });
  });
  afterAll(async () => {
    await pooled?.close();
    await inline?.close();
  });

  it('writes and answers the same HTML, links and backlinks as rendering on the main thread', async () => {
    expect(LONG_PAGE.length).toBeGreaterThanOrEqual(MIN_OFFLOADED_CHARS);
    const renders = pooled.get(RenderPool);
    const admin = await signedIn(pooled, 'admin');
    // The pool starts with the first long page (rendered here meanwhile); then it answers.
    await admin
      .post('/api/pages')
      .send({ slug: 'warm-up', title: 'Warm-up', content: 'A warm-up paragraph.\n\n'.repeat(60) })
      .expect(201);
    await eventually(() => expect(renders.ready).toBe(true));
    const servedBefore = renders.served;
    await writePages(admin);
    expect(renders.served - servedBefore).toBe(2);

    const other = await signedIn(inline, 'admin');
    await writePages(other);
    expect(inline.get(RenderPool).served).toBe(0);

    const fromWorker = (await admin.get('/api/pages/guide/release').expect(200)).body;
    const fromMain = (await other.get('/api/pages/guide/release').expect(200)).body;
    expect(fromWorker.html).toBe(fromMain.html);
    expect(fromWorker.html).toContain('Edited by Acme.');
    expect(fromWorker.html).toContain('<table>');
    expect(fromWorker.html).toContain('href="/guide/checklist"');
    expect(fromWorker.html).not.toMatch(/<script|onclick|javascript:/);
    // The links found by the worker's render are the page's links: the target shows the backlink.
    const target = (await admin.get('/api/pages/guide/checklist').expect(200)).body;
    expect(target.backlinks).toEqual([{ slug: 'guide/release', title: 'Release' }]);
    expect(target.backlinks).toEqual(
      (await other.get('/api/pages/guide/checklist').expect(200)).body.backlinks,
    );
  });

  it('renders a page again in a worker when the site variables change', async () => {
    const renders = pooled.get(RenderPool);
    const admin = await signedIn(pooled, 'admin');
    await eventually(() => expect(renders.ready).toBe(true));
    await admin
      .put('/api/variables')
      .send({ variables: { company: 'Globex' } })
      .expect(200);
    const served = renders.served;
    const page = (await admin.get('/api/pages/guide/release').expect(200)).body;
    expect(page.html).toContain('Edited by Globex.');
    expect(page.html).not.toContain('Acme');
    expect(renders.served).toBe(served + 1);
  });

  it('renders previews and print documents of long Markdown in a worker, as the main thread does', async () => {
    const renders = pooled.get(RenderPool);
    const admin = await signedIn(pooled, 'admin');
    const other = await signedIn(inline, 'admin');
    await eventually(() => expect(renders.ready).toBe(true));
    const preview = { content: LONG_PAGE, slug: 'guide/draft', variables: { company: 'Initech' } };
    const served = renders.served;
    const fromWorker = (await admin.post('/api/preview').send(preview).expect(200)).body.html;
    expect(renders.served).toBe(served + 1);
    expect(fromWorker).toBe((await other.post('/api/preview').send(preview).expect(200)).body.html);
    expect(fromWorker).toContain('Shipped by Initech.');
    expect(fromWorker).toContain('href="/guide/checklist"');
    expect(fromWorker).not.toMatch(/<script|onclick/);

    const overrides = { variables: { company: 'Umbrella' } };
    const printed = (await admin.post('/export/preview/guide/release').send(overrides).expect(200))
      .body.document;
    expect(renders.served).toBe(served + 2);
    const printedHere = (
      await other.post('/export/preview/guide/release').send(overrides).expect(200)
    ).body.document;
    // Each document names its own server's origin in absolute links: compared without it.
    const withoutOrigin = (text: string) => text.replace(/http:\/\/127\.0\.0\.1:\d+/g, '');
    expect(printed).toContain('Edited by Umbrella.');
    expect(withoutOrigin(printed)).toBe(withoutOrigin(printedHere));
  });

  it("reports the render pool's queue on /metrics", async () => {
    const text = (await pooled.http().get('/metrics').expect(200)).text;
    expect(text).toMatch(/^kb_worker_pool_queue_length\{pool="render"\} 0$/m);
    expect(text).toMatch(/^kb_worker_pool_active\{pool="render"\} 0$/m);
  });
});
