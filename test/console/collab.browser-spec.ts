import type { Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { createPage } from '../support/pages';
import { createUser, login, type TestUser } from '../support/users';
import { newContext, signIn, useConsoleApp } from './console-app';

/** The editor's text without the remote cursors' name labels (which sit inside its lines). */
function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const content = document.querySelector('#editor-content')!.cloneNode(true) as HTMLElement;
    content.querySelectorAll('.cm-ySelectionInfo').forEach((label) => label.remove());
    // The remote carets are widgets framed by word joiners (U+2060).
    return [...content.querySelectorAll('.cm-line')]
      .map((line) => (line.textContent ?? '').replace(/\u2060/g, ''))
      .join('\n');
  });
}

/** Issue 30 in Chromium: three people type into one page at once and converge. */
describe('console: editing together', () => {
  const h = useConsoleApp({});

  async function editorFor(user: TestUser): Promise<Page> {
    const context = await newContext(h.browser, h.app);
    const page = await context.newPage();
    await signIn(page, user, '/edit/together');
    await page
      .getByRole('textbox', { name: 'Content' })
      .waitFor()
      .catch(async (error: unknown) => {
        await page.screenshot({ path: '/tmp/collab-fail.png' });
        console.log(
          'probe',
          await page.evaluate(
            () =>
              new Promise((resolve) => {
                const ws = new WebSocket(`ws://${location.host}/collab/together`);
                ws.onopen = () => resolve('open');
                ws.onclose = (e) => resolve(`close ${e.code} ${e.reason}`);
              }),
          ),
        );
        throw error;
      });
    return page;
  }

  it('converges three editors typing on the same line, shows names, merges an offline one', async () => {
    await createPage(h.app.as.admin, 'together', { content: 'Shared line\n' });
    const third = await createUser(h.app.t, 'editor', { username: 'tess' });
    const pages = [
      await editorFor(h.app.admin),
      await editorFor(h.app.editor),
      await editorFor(third),
    ];
    const region = pages[0].getByRole('region', { name: 'Editing now' });
    for (const name of ['ada', 'edith', 'tess']) await region.getByText(name).waitFor();

    // Everyone types at the end of the same line at the same time.
    await Promise.all(
      pages.map(async (page, i) => {
        const content = page.getByRole('textbox', { name: 'Content' });
        await content.click();
        await page.keyboard.press('Control+Home');
        await page.keyboard.press('End');
        await page.keyboard.type(` [${i}]`, { delay: 20 });
      }),
    );
    const texts = () => Promise.all(pages.map(editorText));
    let converged = '';
    await eventually(async () => {
      const all = await texts();
      converged = all[0];
      expect(all).toEqual([all[0], all[0], all[0]]);
      // Typing at one spot at once may interleave, but every character typed is there once.
      const sorted = (text: string) => [...text.replace(/\n/g, '')].sort().join('');
      expect(sorted(all[0])).toBe(sorted('Shared line [0] [1] [2]'));
    });

    // The page view's count of editors.
    const { body } = await h.app.as.reader.get('/api/collab?slug=together').expect(200);
    expect(body).toEqual({ editing: 3 });
    // ... as the page view shows it to a reader.
    const viewer = await (await newContext(h.browser, h.app)).newPage();
    await signIn(viewer, h.app.reader, '/wiki/together');
    await viewer.getByRole('status').filter({ hasText: '3 editing' }).waitFor();
    await viewer.close();

    // A PUT through the API reaches every editor, their typing kept.
    const writer = await login(h.app.t, await createUser(h.app.t, 'editor'));
    const before = (await writer.get('/api/pages/together').expect(200)).body;
    await writer
      .put('/api/pages/together')
      .send({ content: `${before.content}From the API\n`, baseRevision: before.revision })
      .expect(200);
    await eventually(async () => {
      for (const text of await texts()) {
        expect(text).toContain('From the API');
        // Everything typed before it is still there around it.
        expect(text.replace('\nFrom the API', '')).toBe(converged);
      }
    });

    // The third goes offline, types, and comes back.
    const cdp = await pages[2].context().newCDPSession(pages[2]);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await pages[2].getByText('Offline — your changes will sync').waitFor({ timeout: 30_000 });
    await pages[2].keyboard.type(' offline words');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await pages[0]
      .getByRole('textbox', { name: 'Content' })
      .getByText('offline words')
      .waitFor({ timeout: 30_000 });

    // Ctrl+S saves (the editor's PUT); the others who typed become the revision's co-authors.
    await pages[1].getByRole('textbox', { name: 'Content' }).click();
    await pages[1].keyboard.press('Control+s');
    await pages[1].waitForURL('**/wiki/together');
    await eventually(async () => {
      const { body: list } = await h.app.as.admin.get('/api/revisions?slug=together').expect(200);
      expect(list.items[0]).toMatchObject({ author: 'edith', coAuthors: ['ada', 'tess'] });
    });
    const saved = (await h.app.as.admin.get('/api/pages/together').expect(200)).body;
    expect(saved.content).toBe(await editorText(pages[0]));
    // The history names them too.
    await pages[0].goto(`${h.app.url}/history/together`);
    await pages[0]
      .getByRole('row')
      .filter({ hasText: 'edith' })
      .filter({ hasText: 'with ada, tess' })
      .first()
      .waitFor();
  });
  it('offers an older private draft once, to bring into the live session or discard', async () => {
    const original = 'One\nTwo\nThree\n';
    for (const slug of ['drafted', 'dropped']) {
      await createPage(h.app.as.admin, slug, { content: original });
      // Edith's draft from before: it changed line two of revision 1.
      await h.app.as.editor
        .put(`/api/drafts/page:${slug}`)
        .send({ title: null, content: 'One\nTwo, from the draft\nThree\n', baseRevision: 1 })
        .expect(201);
      // Someone saved since: the live text starts from revision 2.
      await h.app.as.admin
        .put(`/api/pages/${slug}`)
        .send({ content: `Zero\n${original}`, baseRevision: 1 })
        .expect(200);
    }

    const context = await newContext(h.browser, h.app);
    const edith = await context.newPage();
    await signIn(edith, h.app.editor, '/edit/drafted');
    const other = await (await newContext(h.browser, h.app)).newPage();
    await signIn(other, h.app.admin, '/edit/drafted');
    await other.getByRole('textbox', { name: 'Content' }).waitFor();

    const offer = edith.getByRole('alert').filter({ hasText: 'from before this live session' });
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Apply draft to the live page' }).click();
    await offer.waitFor({ state: 'detached' });
    // The draft's change joins what was saved since, in every editor of the session.
    const merged = 'Zero\nOne\nTwo, from the draft\nThree\n';
    await eventually(async () => {
      expect(await editorText(edith)).toBe(merged);
      expect(await editorText(other)).toBe(await editorText(edith));
    });
    expect(await editorText(edith)).toContain('Two, from the draft');
    await h.app.as.editor.get('/api/drafts/page:drafted').expect(404);
    // Offered once: back in the editor, no offer.
    await edith.reload();
    await edith.getByRole('textbox', { name: 'Content' }).waitFor();
    await edith.getByRole('region', { name: 'Editing now' }).getByText('ada').waitFor();
    expect(await edith.getByText('from before this live session').count()).toBe(0);

    // Discard leaves the live text as it is, and the draft goes.
    await edith.goto(`${h.app.url}/edit/dropped`);
    const dropOffer = edith.getByRole('alert').filter({ hasText: 'from before this live session' });
    await dropOffer.getByRole('button', { name: 'Discard draft' }).click();
    await dropOffer.waitFor({ state: 'detached' });
    await h.app.as.editor.get('/api/drafts/page:dropped').expect(404);
    expect(await editorText(edith)).toBe(`Zero\n${original}`);
  });
  it('undoes only the own typing with Ctrl+Z', async () => {
    await createPage(h.app.as.admin, 'undo-each', { content: 'Base\n' });
    const [ada, edith] = [h.app.admin, h.app.editor];
    const pages: Page[] = [];
    for (const user of [ada, edith]) {
      const page = await (await newContext(h.browser, h.app)).newPage();
      await signIn(page, user, '/edit/undo-each');
      await page.getByRole('textbox', { name: 'Content' }).waitFor();
      pages.push(page);
    }
    await pages[1].getByRole('region', { name: 'Editing now' }).getByText('ada').waitFor();
    await pages[0].getByRole('textbox', { name: 'Content' }).click();
    await pages[0].keyboard.press('Control+End');
    await pages[0].keyboard.type('from ada');
    await eventually(async () => expect(await editorText(pages[1])).toContain('from ada'));
    await pages[1].getByRole('textbox', { name: 'Content' }).click();
    await pages[1].keyboard.press('Control+Home');
    await pages[1].keyboard.type('from edith ');
    await eventually(async () => expect(await editorText(pages[0])).toContain('from edith'));
    // Edith's Ctrl+Z takes back her typing, not Ada's.
    await pages[1].keyboard.press('Control+z');
    await eventually(async () => {
      for (const page of pages) expect(await editorText(page)).toBe('Base\nfrom ada');
    });
  });
});
