import { eventually } from '../support/eventually';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { png } from '../support/images';
import { newContext, signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { createPage } from '../support/pages';

/** Flows 4 and 5: writing pages, drafts that survive a reload, and conflicts between two people. */
describe('console: writing pages, drafts and conflicts', () => {
  const h = useConsoleApp({ signIn: 'editor' });
  let app: ConsoleApp;
  let browser: Browser;
  let page: Page;

  beforeAll(() => ({ app, browser, page } = h));

  const content = (p: Page = page) => p.getByRole('textbox', { name: 'Content' });
  const preview = (p: Page = page) => p.getByRole('region', { name: 'Preview' });

  /** Types at the end of the CodeMirror text. */
  async function typeAtEnd(p: Page, text: string): Promise<void> {
    await content(p).click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(text);
  }

  const stored = async (slug: string) =>
    (await app.as.admin.get(`/api/pages/${slug}`).expect(200)).body;

  it('creates a page with slug, title, live preview and metadata, then reads it', async () => {
    await page.getByRole('link', { name: 'New page' }).first().click();
    await page.getByLabel('Title').fill('Release checklist');
    await page.getByLabel('Slug').fill('guides/release');
    await typeAtEnd(page, '# Steps\n\nShip **carefully** to {{env}}.');
    await page.getByText('Page details').click();
    await page.getByLabel('Icon').fill('✅');
    await page.getByRole('textbox', { name: 'Tags' }).fill('release, Ops');
    await page.getByLabel('Lifecycle').selectOption('in_review');
    await page.getByLabel('Owner').fill(app.editor.username);
    await page.getByLabel('Review every (days)').fill('30');
    await page.getByRole('checkbox', { name: 'ops' }).check();
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('variable 1 name').fill('env');
    await page.getByLabel('variable 1 value').fill('staging');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByLabel('property 1 name').fill('team');
    await page.getByLabel('property 1 value').fill('release');
    // The preview is the server's rendering, variables included.
    await preview().getByText('Ship carefully to staging.').waitFor();
    expect(await preview().locator('strong').textContent()).toBe('carefully');
    await page.getByRole('button', { name: 'Save' }).click();

    await page.waitForURL('**/wiki/guides/release');
    await page.getByRole('heading', { name: 'Release checklist' }).waitFor();
    await page.getByText('In review').first().waitFor();
    expect(await stored('guides/release')).toMatchObject({
      title: 'Release checklist',
      content: '# Steps\n\nShip **carefully** to {{env}}.',
      icon: '✅',
      tags: ['release', 'ops'],
      lifecycle: 'in_review',
      owner: app.editor.username,
      reviewIntervalDays: 30,
      groups: ['ops'],
      variables: { env: 'staging' },
      properties: { team: 'release' },
      revision: 1,
    });
    // No draft is left behind by a save.
    await app.as.editor.get('/api/drafts/new').expect(404);
  });

  it('shows 422 field problems next to their fields and saves nothing', async () => {
    await createPage(app.as.editor, 'guides/invalid', { title: 'Valid title' });
    await page.goto('/edit/guides/invalid');
    await page.getByLabel('Title').fill('');
    await page.getByText('Page details').click();
    await page.getByLabel('Language').fill('not a language!');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Not saved.').waitFor();
    const title = page.getByLabel('Title');
    await expectInvalid(title);
    await expectInvalid(page.getByLabel('Language'));
    expect(await stored('guides/invalid')).toMatchObject({
      title: 'Valid title',
      language: null,
      revision: 1,
    });
  });

  async function expectInvalid(field: ReturnType<Page['getByLabel']>): Promise<void> {
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    const messages = await Promise.all(
      describedBy.split(' ').map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(messages.join(' ').length).toBeGreaterThan(0);
  }

  it('uploads an image dropped into the editor and inserts its Markdown', async () => {
    await createPage(app.as.editor, 'guides/pictures', { title: 'Pictures', content: 'Before.\n' });
    await page.goto('/edit/guides/pictures');
    await content().waitFor();
    const bytes = [...png(4, 3)];
    const dataTransfer = await page.evaluateHandle((data) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(data)], 'diagram.png', { type: 'image/png' }));
      return transfer;
    }, bytes);
    await content().dispatchEvent('drop', { dataTransfer });
    await content()
      .getByText(/!\[diagram\.png\]\(\/api\/images\/[0-9a-f-]+\/content\)/)
      .waitFor();
    await preview().locator('img[alt="diagram.png"]').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/wiki/guides/pictures');
    const saved = await stored('guides/pictures');
    expect(saved.content).toContain('Before.\n');
    expect(saved.content).toMatch(/!\[diagram\.png\]\(\/api\/images\/[0-9a-f-]+\/content\)\n/);
    const images = (await app.as.editor.get('/api/images').expect(200)).body.items;
    expect(images).toEqual([
      expect.objectContaining({ filename: 'diagram.png', mimeType: 'image/png' }),
    ]);
  });

  // An existing page is a live session (docs/collab.md): what is typed is stored as it is
  // typed, and the last editor to leave writes it as a revision; no draft is needed for it.
  it('keeps what was typed across a reload: the live session stored it', async () => {
    await createPage(app.as.editor, 'guides/drafty', { title: 'Drafty', content: 'Saved text.' });
    await page.goto('/edit/guides/drafty');
    await typeAtEnd(page, '\nTyped before the reload.');
    await page.reload();
    await expect(content().textContent()).resolves.toContain('Typed before the reload.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/wiki/guides/drafty');
    await eventually(async () =>
      expect(await stored('guides/drafty')).toMatchObject({
        content: 'Saved text.\nTyped before the reload.',
      }),
    );
  });

  it('writes the text as a revision when the last editor leaves', async () => {
    await createPage(app.as.editor, 'guides/leaving', { title: 'Leaving', content: 'Saved.' });
    await page.goto('/edit/guides/leaving');
    await typeAtEnd(page, ' Typed, then left at once.');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/wiki/guides/leaving');
    await eventually(async () =>
      expect(await stored('guides/leaving')).toMatchObject({
        content: 'Saved. Typed, then left at once.',
        revision: 2,
      }),
    );
  });

  describe('two people editing the same page', () => {
    let other: BrowserContext;
    let theirs: Page;

    beforeAll(async () => {
      other = await newContext(browser, app);
      theirs = await other.newPage();
      await signIn(theirs, app.admin);
    });
    afterAll(() => other.close());

    it('see each other type and both save without a conflict', async () => {
      const slug = 'shared/live';
      await createPage(app.as.editor, slug, { title: 'Shared', content: 'line one\nline two' });
      await page.goto(`/edit/${slug}`);
      await theirs.goto(`/edit/${slug}`);
      await content().waitFor();
      await content(theirs).waitFor();
      await typeAtEnd(theirs, '\nline three (theirs)');
      await content().getByText('line three (theirs)').waitFor();
      await typeAtEnd(page, '\nline four (mine)');
      await content(theirs).getByText('line four (mine)').waitFor();
      await theirs.getByRole('button', { name: 'Save' }).click();
      await theirs.waitForURL(`**/wiki/${slug}`);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`**/wiki/${slug}`);
      expect(await stored(slug)).toMatchObject({
        content: 'line one\nline two\nline three (theirs)\nline four (mine)',
      });
    });
  });
});
