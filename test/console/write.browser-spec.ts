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

  async function replaceText(p: Page, text: string): Promise<void> {
    await content(p).click();
    await p.keyboard.press('Control+A');
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

  it('keeps the text as a server draft and offers it again after a reload (Resume draft)', async () => {
    await createPage(app.as.editor, 'guides/drafty', { title: 'Drafty', content: 'Saved text.' });
    await page.goto('/edit/guides/drafty');
    await typeAtEnd(page, '\nTyped before the reload.');
    await page.getByText('Draft saved').waitFor({ timeout: 15_000 });
    const draft = (await app.as.editor.get('/api/drafts/page:guides/drafty').expect(200)).body;
    expect(draft).toMatchObject({
      content: 'Saved text.\nTyped before the reload.',
      baseRevision: 1,
    });

    await page.reload();
    await page.getByRole('button', { name: 'Resume draft' }).click();
    await expect(content().textContent()).resolves.toContain('Typed before the reload.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/wiki/guides/drafty');
    expect(await stored('guides/drafty')).toMatchObject({
      content: 'Saved text.\nTyped before the reload.',
      revision: 2,
    });
    await app.as.editor.get('/api/drafts/page:guides/drafty').expect(404);
  });

  it('saves the draft on leaving, offers it on the page, and Discard draft drops it', async () => {
    await createPage(app.as.editor, 'guides/leaving', { title: 'Leaving', content: 'Saved.' });
    await page.goto('/edit/guides/leaving');
    await typeAtEnd(page, ' Typed, then left at once.');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/wiki/guides/leaving');
    // The page offers the draft that was saved on the way out.
    await page.getByRole('button', { name: 'Resume draft' }).waitFor();
    const draft = (await app.as.editor.get('/api/drafts/page:guides/leaving').expect(200)).body;
    expect(draft.content).toBe('Saved. Typed, then left at once.');

    await page.goto('/edit/guides/leaving');
    await page.getByRole('button', { name: 'Discard draft' }).click();
    await page.getByRole('button', { name: 'Discard draft' }).waitFor({ state: 'detached' });
    expect(await content().textContent()).toBe('Saved.');
    await app.as.editor.get('/api/drafts/page:guides/leaving').expect(404);
    expect(await stored('guides/leaving')).toMatchObject({ content: 'Saved.', revision: 1 });
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

    const base = 'line one\nline two\nline three\nline four';

    /** Both open the editor; the other person saves first; this one saves and meets the conflict. */
    async function conflict(slug: string, mine: string, their: string): Promise<void> {
      await createPage(app.as.editor, slug, { title: 'Shared', content: base });
      await page.goto(`/edit/${slug}`);
      await theirs.goto(`/edit/${slug}`);
      await content().waitFor();
      await content(theirs).waitFor();
      await replaceText(theirs, their);
      await theirs.getByRole('button', { name: 'Save' }).click();
      await theirs.waitForURL(`**/wiki/${slug}`);
      await replaceText(page, mine);
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('heading', { name: 'This page changed while you were editing' })
        .waitFor();
      // Nothing was overwritten: the stored page is theirs.
      expect(await stored(slug)).toMatchObject({ content: their, revision: 2 });
      await page
        .getByRole('cell', { name: /line TWO \(theirs\)|theirs/ })
        .first()
        .waitFor();
    }

    it('Keep mine saves my text on top of theirs', async () => {
      await conflict(
        'shared/keep',
        'line one\nline two (mine)\nline three',
        'line one\nline TWO (theirs)\nline three',
      );
      await page.getByRole('button', { name: 'Keep mine' }).click();
      await page.waitForURL('**/wiki/shared/keep');
      expect(await stored('shared/keep')).toMatchObject({
        content: 'line one\nline two (mine)\nline three',
        revision: 3,
      });
    });

    it('Take theirs continues from their revision and drops mine', async () => {
      await conflict('shared/take', 'mine only', 'line one\nline TWO (theirs)\nline three');
      await page.getByRole('button', { name: 'Take theirs' }).click();
      await expect(content().textContent()).resolves.toBe(
        'line one\nline TWO (theirs)\nline three'.replace(/\n/g, ''),
      );
      await typeAtEnd(page, '\nadded after taking theirs');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL('**/wiki/shared/take');
      expect(await stored('shared/take')).toMatchObject({
        content: 'line one\nline TWO (theirs)\nline three\nadded after taking theirs',
        revision: 3,
      });
    });

    it('Merge combines both edits and marks the lines both changed', async () => {
      await conflict(
        'shared/merge',
        'line one (mine)\nline two\nline three\nline four\nmy new last line',
        'line one (theirs)\nline two\nline three (theirs)\nline four',
      );
      await page.getByRole('button', { name: 'Merge' }).click();
      await page.getByText(/1 place where both changed the same lines/).waitFor();
      const merged = [
        '<<<<<<< mine',
        'line one (mine)',
        '=======',
        'line one (theirs)',
        '>>>>>>> theirs',
        'line two',
        'line three (theirs)',
        'line four',
        'my new last line',
      ];
      await expect(content().textContent()).resolves.toBe(merged.join(''));
      // Markers left in: not saved.
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(/still holds conflict markers/).waitFor();
      await replaceText(
        page,
        'line one (both)\nline two\nline three (theirs)\nline four\nmy new last line',
      );
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL('**/wiki/shared/merge');
      expect(await stored('shared/merge')).toMatchObject({
        content: 'line one (both)\nline two\nline three (theirs)\nline four\nmy new last line',
        revision: 3,
      });
    });
  });
});
