import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { zip } from '../support/import-helpers';
import { createPage, updatePage } from '../support/pages';
import {
  newContext,
  seriousA11yViolations,
  signIn,
  useConsoleApp,
  type ConsoleApp,
} from './console-app';

const shots = process.env.LIVE_SCREENSHOTS ?? null;

/**
 * Issue 26, items 6, 8, 10 and 11 in Chromium: the live sidebar and "Updated by … — Show",
 * search as you type and the quick switcher, missing links and the table of contents, Watch.
 */
describe('console: live updates, quick switcher, missing links, watch', () => {
  const h = useConsoleApp({ seed: true, signIn: 'reader' });
  let app: ConsoleApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(() => {
    ({ app, context, page } = h);
  });

  const tree = () => page.getByRole('navigation', { name: 'Pages' });
  const shot = async (name: string) => {
    if (shots) await page.screenshot({ path: join(shots, `${name}.png`) });
  };

  it('shows pages imported from another browser context in the tree and Recent within 2 s, without a reload', async () => {
    await page.goto('/');
    await tree().getByRole('treeitem', { name: 'Handbook', exact: true }).waitFor();
    const loaded = await page.evaluate(() => performance.timeOrigin);

    // An administrator imports 60 pages in another browser context.
    const admin = await newContext(h.browser, app);
    try {
      const files: Record<string, string> = {};
      for (let i = 1; i <= 60; i++)
        files[`page-${String(i).padStart(2, '0')}.md`] = `# Imported ${i}\n\nText ${i}.`;
      const adminPage = await admin.newPage();
      await signIn(adminPage, app.admin);
      const res = await admin.request.post('/api/import', {
        headers: { Origin: app.url },
        multipart: {
          format: 'markdown',
          prefix: 'imported',
          files: { name: 'pages.zip', mimeType: 'application/zip', buffer: zip(files) },
        },
      });
      expect(res.status()).toBe(200);
      const imported = Date.now();
      await tree()
        .getByRole('treeitem', { name: 'imported', exact: true })
        .waitFor({ timeout: 2000 });
      await page
        .getByRole('region', { name: 'Recent' })
        .getByRole('link', { name: /Imported \d+/ })
        .first()
        .waitFor({ timeout: 2000 });
      expect(Date.now() - imported).toBeLessThan(2000);
    } finally {
      await admin.close();
    }
    // Still the same document: nothing reloaded.
    expect(await page.evaluate(() => performance.timeOrigin)).toBe(loaded);
  });

  it('shows "Updated by … — Show" when someone else saves the open page', async () => {
    await createPage(app.as.editor, 'live/notes', { title: 'Notes', content: 'First words.' });
    await page.goto('/wiki/live/notes');
    await page.getByText('First words.').waitFor();
    await updatePage(app.as.editor, 'live/notes', { content: 'Second words.' });
    const banner = page.getByRole('status').filter({ hasText: 'Updated by' });
    await banner.waitFor({ timeout: 2000 });
    expect(await banner.textContent()).toMatch(/Updated by edith\s*—\s*Show/);
    // The page is not swapped under the reader until they ask.
    expect(await page.getByText('First words.').count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('live-updated-desktop');
    await banner.getByRole('button', { name: 'Show' }).click();
    await page.getByText('Second words.').waitFor();
    expect(await banner.count()).toBe(0);
  });

  it('searches while typing, the last word as a prefix', async () => {
    await createPage(app.as.editor, 'ops/rollback', {
      title: 'Rollback guide',
      content: 'How to roll back a release.',
    });
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search' }).pressSequentially('rollb', { delay: 40 });
    await page.waitForURL('**/search?q=rollb');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('link', { name: 'Rollback guide' }).waitFor();
    // The field kept the focus and the text.
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('rollb');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Search',
    );
  });

  it('opens the quick switcher with / and Ctrl+K and goes to a page with the keyboard alone', async () => {
    await page.goto('/wiki/handbook');
    await page
      .getByRole('heading', { name: /Handbook/ })
      .first()
      .waitFor();
    await page.locator('body').press('/');
    const dialog = page.getByRole('dialog', { name: 'Go to page' });
    const box = dialog.getByRole('combobox');
    await box.waitFor();
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('handbook/');
    const options = dialog.getByRole('option');
    await options.nth(2).waitFor();
    // Slug matches first, then the title "Handbook" (its word as a prefix).
    expect(await options.allTextContents()).toEqual([
      'Onboardinghandbook/onboarding',
      'Toolshandbook/tools',
      'Handbookhandbook',
    ]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('switcher-desktop');
    await page.keyboard.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await box.getAttribute('aria-activedescendant')).toBe(
      await options.nth(1).getAttribute('id'),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL('**/wiki/handbook/tools');
    expect(await dialog.count()).toBe(0);

    await page.keyboard.press('Control+k');
    await box.waitFor();
    await page.keyboard.type('onboa');
    await dialog.getByRole('option', { name: /Onboarding/ }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/wiki/handbook/onboarding');
    // Escape closes it; `/` typed into a field is just a slash.
    await page.keyboard.press('Control+k');
    await box.waitFor();
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.type('a/b');
    expect(await dialog.count()).toBe(0);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('a/b');
  });

  it('gives the quick switcher the whole width of a phone', async () => {
    const phone = await newContext(h.browser, app, { width: 390, height: 844 });
    try {
      const p = await phone.newPage();
      await signIn(p, app.reader);
      await p.keyboard.press('Control+k');
      const dialog = p.getByRole('dialog', { name: 'Go to page' });
      await dialog.getByRole('combobox').fill('hand');
      await dialog.getByRole('option').first().waitFor();
      const box = await dialog.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(389);
      if (shots) await p.screenshot({ path: join(shots, 'switcher-phone.png') });
    } finally {
      await phone.close();
    }
  });

  it('marks links to missing and invisible pages alike, and shows contents for 3+ headings', async () => {
    await createPage(app.as.editor, 'live/links', {
      title: 'Links',
      content: [
        '## One',
        '',
        '[tools](/handbook/tools) [secret](/ops/secrets) [nowhere](/live/nowhere)',
        '',
        '## Two',
        '',
        '### Three',
      ].join('\n'),
    });
    await page.goto('/wiki/live/links');
    const body = page.locator('.prose');
    await body.getByRole('link', { name: 'tools' }).waitFor();
    const classes = async (name: string) => body.getByRole('link', { name }).getAttribute('class');
    expect(await classes('tools')).toBeNull();
    expect(await classes('secret')).toBe('kb-missing');
    expect(await classes('nowhere')).toBe('kb-missing');
    const color = (name: string) =>
      body.getByRole('link', { name }).evaluate((el) => getComputedStyle(el).color);
    expect(await color('secret')).toBe(await color('nowhere'));
    expect(await color('secret')).not.toBe(await color('tools'));

    const contents = page.getByRole('navigation', { name: 'Contents' });
    expect(await contents.getByRole('link').allTextContents()).toEqual(['One', 'Two', 'Three']);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot('missing-links-desktop');
  });

  it('lets an editor open the new-page form from a missing link', async () => {
    const editorContext = await newContext(h.browser, app);
    try {
      const p = await editorContext.newPage();
      await signIn(p, app.editor, '/wiki/live/links');
      await p.locator('.prose').getByRole('link', { name: 'nowhere' }).click();
      await p.waitForURL('**/new?slug=live%2Fnowhere');
      expect(await p.getByLabel('Slug').inputValue()).toBe('live/nowhere');
      // Saved without naming an owner: the creator owns it (the form sends none).
      await p.getByLabel('Title').fill('Nowhere no more');
      await p.getByRole('button', { name: 'Save' }).click();
      await p.waitForURL('**/wiki/live/nowhere');
      const created = (await app.as.admin.get('/api/pages/live/nowhere').expect(200)).body;
      expect(created.owner).toBe(app.editor.username);
    } finally {
      await editorContext.close();
    }
  });

  it('watches a page with a toggle button and hears of its changes in the inbox', async () => {
    await page.goto('/wiki/runbooks/deploy');
    const watch = page.getByRole('button', { name: 'Watch', exact: true });
    await watch.waitFor();
    expect(await watch.getAttribute('aria-pressed')).toBe('false');
    await watch.click();
    await page.waitForFunction(
      () => document.querySelector('button[aria-pressed="true"]')?.textContent?.trim() === 'Watch',
    );
    expect((await app.as.reader.get('/api/watches').expect(200)).body.items).toEqual([
      { slug: 'runbooks/deploy', subtree: false, createdAt: expect.any(String) },
    ]);
    await page.reload();
    await page.waitForFunction(
      () => document.querySelector('button[aria-pressed="true"]')?.textContent?.trim() === 'Watch',
    );

    await updatePage(app.as.editor, 'runbooks/deploy', { title: 'Deploy to production v2' });
    await page.goto('/notifications');
    await page.getByText('Deploy to production v2').first().waitFor({ timeout: 10_000 });

    await page.goto('/wiki/runbooks/deploy');
    await page.getByRole('button', { name: 'Watch', pressed: true }).click();
    await page.getByRole('button', { name: 'Watch', pressed: false }).waitFor();
    expect((await app.as.reader.get('/api/watches').expect(200)).body.items).toEqual([]);
    // A leaf page offers no folder watch.
    expect(await page.getByRole('button', { name: 'Watch folder' }).count()).toBe(0);
  });

  it('watches a folder from its page: the page and every page under it', async () => {
    await page.goto('/wiki/handbook');
    const folder = page.getByRole('button', { name: 'Watch folder', pressed: false });
    await folder.click();
    await page.getByRole('button', { name: 'Watch folder', pressed: true }).waitFor();
    expect(
      await page.getByRole('button', { name: 'Watch', exact: true }).getAttribute('aria-pressed'),
    ).toBe('false');
    expect((await app.as.reader.get('/api/watches').expect(200)).body.items).toEqual([
      { slug: 'handbook', subtree: true, createdAt: expect.any(String) },
    ]);
    await updatePage(app.as.editor, 'handbook/tools', { title: 'Tools we love' });
    await page.goto('/notifications');
    await page.getByText('Tools we love').first().waitFor({ timeout: 10_000 });
    // The Account screen lists what the person watches, and stops watching from there.
    await page.goto('/account');
    const watching = page.getByRole('region', { name: 'Watching' });
    await watching.getByRole('link', { name: 'handbook' }).waitFor();
    await watching
      .getByRole('button', { name: 'Stop watching handbook and the pages under it' })
      .click();
    await watching.getByText('You watch no pages.').waitFor();
    expect((await app.as.reader.get('/api/watches').expect(200)).body.items).toEqual([]);
  });

  it('warns in the editor before Save that a newer revision exists', async () => {
    const editorContext = await newContext(h.browser, app);
    try {
      const p = await editorContext.newPage();
      await signIn(p, app.editor, '/edit/live/notes');
      await p.getByRole('textbox', { name: 'Content' }).waitFor();
      await updatePage(app.as.admin, 'live/notes', { content: 'Third words.' });
      const alert = p.getByRole('alert').filter({ hasText: 'A newer revision' });
      await alert.waitFor({ timeout: 2000 });
      expect(await alert.textContent()).toContain('A newer revision (3)');
    } finally {
      await editorContext.close();
    }
    void context;
  });
});
