import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { png } from '../support/images';
import { signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { createPage, updatePage } from '../support/pages';

/** Flows 2, 3, 7, 8 and 9: finding, reading, exporting, notifications and access tokens. */
describe('console: finding and reading pages, export, notifications, tokens', () => {
  const h = useConsoleApp({ seed: true, signIn: 'reader' });
  let app: ConsoleApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, context, page } = h);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });

  const tree = () => page.getByRole('navigation', { name: 'Pages' });

  it('builds the page tree from slugs and loads a branch only when it opens', async () => {
    const treeRequests: string[] = [];
    page.on(
      'request',
      (r) => r.url().includes('/api/tree') && treeRequests.push(new URL(r.url()).search),
    );
    await page.goto('/');
    const item = (name: string) => tree().getByRole('treeitem', { name, exact: true });
    await item('Handbook').waitFor();
    // The reader does not see the ops group's page, so no "ops" branch.
    expect(await tree().getByText('ops', { exact: true }).count()).toBe(0);
    expect(treeRequests).toEqual(['?limit=50']);
    expect(await item('Onboarding').count()).toBe(0);
    expect(await item('Handbook').getAttribute('aria-expanded')).toBe('false');

    // The chevron is the pointer's way to open a branch (keyboards use the arrow keys).
    await item('Handbook').locator('.tree__toggle').click();
    await item('Onboarding').waitFor();
    expect(await item('Handbook').getAttribute('aria-expanded')).toBe('true');
    expect(treeRequests).toEqual(['?limit=50', '?parent=handbook&limit=50']);
    // A reader gets no "New page here".
    expect(await item('New page here').count()).toBe(0);
    // A folder without a page of its own shows its segment and opens on a click.
    await item('runbooks').click();
    await item('Deploy to production').click();
    await page.waitForURL('**/wiki/runbooks/deploy');
    await item('Handbook').locator('.tree__toggle').click();
    expect(await item('Onboarding').count()).toBe(0);
  });

  it('lists recent pages and tags with counts; a tag lists its pages', async () => {
    const recent = page.getByRole('region', { name: 'Recent' });
    await recent.getByRole('link').first().waitFor();
    const titles = await recent.getByRole('link').allTextContents();
    expect(
      titles.map((t) => t.replace(/^\S+ /u, (m) => (/\p{L}/u.test(m) ? m : '')).trim()),
    ).toContain('Old deploy steps');
    expect(titles.join()).not.toContain('Secrets rotation');

    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByRole('link', { name: 'guide 3 pages' }).click();
    await page.waitForURL('**/tags/guide');
    const list = page.getByRole('list', { name: 'Pages tagged guide' });
    await list.getByRole('link').first().waitFor();
    expect((await list.getByRole('link').allTextContents()).map((t) => t.trim()).sort()).toEqual(
      ['📘 Handbook', '🚀 Onboarding', 'Tools'].sort(),
    );
  });

  it('searches with ranked, highlighted results and pages through them', async () => {
    for (let i = 1; i <= 23; i++) {
      await createPage(app.as.editor, `zebra/${String(i).padStart(2, '0')}`, {
        title: `Zebra note ${i}`,
        content: `The striped zebra number ${i}.`,
      });
    }
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search' }).fill('zebra');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/search?q=zebra');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.getByRole('listitem').first().waitFor();
    expect(await results.getByRole('listitem').count()).toBe(20);
    expect(await results.locator('mark').first().textContent()).toMatch(/^zebra$/i);
    await page.getByRole('button', { name: 'More results' }).click();
    await results.getByRole('listitem').nth(22).waitFor();
    expect(await results.getByRole('listitem').count()).toBe(23);
    expect(await page.getByRole('button', { name: 'More results' }).count()).toBe(0);
  });

  it('shows a page with its HTML, metadata, backlinks and internal links that stay in the console', async () => {
    await page.goto('/wiki/handbook/onboarding');
    await page.getByRole('heading', { name: 'Onboarding', level: 1 }).waitFor();
    expect(await page.title()).toBe('Onboarding · kb');
    await page.evaluate(
      () => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true),
    );
    const article = page.getByRole('article');
    expect(await article.getByText('Published').count()).toBe(1);
    expect(await article.getByText('Verified').count()).toBe(1);
    const details = page.getByRole('complementary', { name: 'Page details' });
    expect(await details.textContent()).toMatch(
      /Ownerada.*Next reviewJan 1, 2020 \(overdue\).*GroupsEveryone signed in.*Languageen/,
    );
    expect(await details.getByRole('link', { name: 'people' }).count()).toBe(1);
    expect(await article.locator('table td').first().textContent()).toBe('09:00');
    // Backlinks: the handbook links here.
    await article
      .getByRole('region', { name: 'Linked from' })
      .getByRole('link', { name: 'Handbook' })
      .waitFor();
    // An internal link points at the console URL and navigates without reloading.
    const link = article.getByRole('link', { name: 'tools overview' });
    expect(await link.getAttribute('href')).toBe('/wiki/handbook/tools');
    expect(await article.getByRole('link', { name: 'deploy runbook' }).getAttribute('href')).toBe(
      '/wiki/runbooks/deploy',
    );
    await link.click();
    await page.waitForURL('**/wiki/handbook/tools');
    await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);
    // Readers get no Edit action.
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
  });

  it('shows the deprecated banner linking its replacement, and a pasted deep link works', async () => {
    await page.goto('/wiki/runbooks/old-deploy');
    const banner = page.getByRole('note');
    await banner.getByText('Deprecated.').waitFor();
    await banner.getByRole('link', { name: 'runbooks/deploy' }).click();
    await page.waitForURL('**/wiki/runbooks/deploy');
    await page.getByRole('heading', { name: 'Deploy to production' }).waitFor();
    await page.getByText('In review').first().waitFor();
  });

  it('lists revisions with author and time, diffs two and restores one', async () => {
    await createPage(app.as.editor, 'history/demo', {
      title: 'Demo',
      content: 'alpha\nbeta\ngamma',
    });
    await updatePage(app.as.admin, 'history/demo', { content: 'alpha\nBETA\ngamma\ndelta' });
    const editorPage = await context.browser()!.newContext({ baseURL: app.url });
    const edith = await editorPage.newPage();
    try {
      await signIn(edith, app.editor);
      await edith.goto('/wiki/history/demo');
      await edith.getByRole('link', { name: 'Revisions' }).click();
      await edith.waitForURL('**/history/history/demo');
      const rows = edith.getByRole('table').first().getByRole('row');
      await rows.nth(2).waitFor();
      expect(await rows.nth(1).textContent()).toMatch(/^2 edited.*ada/);
      expect(await rows.nth(2).textContent()).toMatch(/^1 created.*edith/);
      const diff = edith.getByRole('figure');
      await diff
        .getByText('1 lines added, 1 removed', { exact: false })
        .or(diff.getByText('2 lines added, 1 removed', { exact: false }))
        .waitFor();
      expect(await diff.locator('.diff__del').allTextContents()).toContain('removed: beta');
      expect(await diff.locator('.diff__add').allTextContents()).toEqual(
        expect.arrayContaining(['added: BETA', 'added: delta']),
      );
      await edith.getByRole('button', { name: 'Inline' }).click();
      await diff.locator('tr.diff__add').first().waitFor();

      await edith.getByRole('button', { name: 'Restore revision 1' }).click();
      const dialog = edith.getByRole('dialog', { name: 'Restore revision 1?' });
      await dialog.getByRole('button', { name: 'Restore' }).click();
      await rows.nth(3).waitFor();
      const stored = (await app.as.admin.get('/api/pages/history/demo').expect(200)).body;
      expect(stored).toMatchObject({ content: 'alpha\nbeta\ngamma', revision: 3 });
      expect(await rows.nth(1).textContent()).toMatch(/^3 restored/);
    } finally {
      await editorPage.close();
    }
  });

  it('exports from the "Export" menu: Markdown, ZIP with images, PDF and Print…', async () => {
    await page.goto('/wiki/handbook/tools');
    const menuButton = page.getByRole('button', { name: 'Export' });
    expect(await menuButton.getAttribute('aria-haspopup')).toBe('menu');
    await menuButton.click();
    const menu = page.getByRole('menu', { name: 'Export' });
    await menu.getByRole('menuitem').first().waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Markdown',
      'ZIP with images',
      'PDF',
      'Print…',
    ]);
    // The first item has the focus; the arrow keys move it, Escape closes and returns it.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('ZIP with images');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Export');

    const choose = async (item: string) => {
      await menuButton.click();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('menuitem', { name: item }).click(),
      ]);
      return download;
    };
    const markdown = await choose('Markdown');
    expect(markdown.suggestedFilename()).toBe('tools.md');
    expect(readFileSync((await markdown.path())!, 'utf8')).toBe(
      '# Tools\n\nThe tools we use every day.\n\nSee also [Onboarding](/handbook/onboarding).\n',
    );
    const plainZip = await choose('ZIP with images');
    expect(plainZip.suggestedFilename()).toBe('tools.zip');

    const upload = await app.as.editor
      .post('/api/images')
      .attach('file', png(2, 2), 'dot.png')
      .expect(201);
    await createPage(app.as.editor, 'pictures', {
      title: 'Pictures',
      content: `![dot](${upload.body.url})`,
    });
    await page.goto('/wiki/pictures');
    const zip = await choose('ZIP with images');
    expect(zip.suggestedFilename()).toBe('pictures.zip');
    expect(
      readFileSync((await zip.path())!)
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');

    // PDF asks kb's PDF route (no converter runs here: the failure is said in words).
    await menuButton.click();
    const [pdfRequest] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === '/export/pdf/pictures'),
      page.getByRole('menuitem', { name: 'PDF' }).click(),
    ]);
    expect(pdfRequest.method()).toBe('GET');
    await page.getByRole('alert').getByText('The export failed.').waitFor();

    await menuButton.click();
    await page.getByRole('menuitem', { name: 'Print…' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
  });

  it('shows unread notifications, marks one and all read, and links items to their pages', async () => {
    // ada owns the handbook pages; edith and the admin change them.
    const adaContext = await context.browser()!.newContext({ baseURL: app.url });
    const ada = await adaContext.newPage();
    try {
      await updatePage(app.as.editor, 'handbook', { content: 'Changed by edith.' });
      await updatePage(app.as.editor, 'handbook/onboarding', { content: 'Also changed by edith.' });
      await signIn(ada, app.admin);
      const button = ada.getByRole('button', { name: 'Notifications' });
      await ada.locator('.badge').getByText('2').waitFor();
      await button.click();
      const panel = ada.getByRole('region', { name: 'Latest notifications' });
      const items = panel.getByRole('listitem');
      await items.nth(1).waitFor();
      // Newest first.
      expect(await items.nth(0).textContent()).toMatch(/edith edited Onboarding/);
      expect(await items.nth(1).textContent()).toMatch(/edith edited Handbook/);
      await ada.keyboard.press('Escape');
      await expect(
        ada.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      ).resolves.toBe('Notifications');

      await button.click();
      await panel.getByRole('link', { name: 'Onboarding' }).click();
      await ada.waitForURL('**/wiki/handbook/onboarding');
      await ada.locator('.badge').getByText('1').waitFor();

      await ada.goto('/notifications');
      await ada.locator('.screen__lead').getByText('1 unread').waitFor();
      await ada.getByRole('button', { name: 'Mark all read' }).click();
      await ada.getByText('All read.').waitFor();
      expect(await ada.locator('.badge').count()).toBe(0);
      const inbox = (await app.as.admin.get('/api/notifications').expect(200)).body;
      expect(inbox.unreadCount).toBe(0);
    } finally {
      await adaContext.close();
    }
  });

  it('creates an access token shown once with a copy button, lists its last use, and revokes it', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('link', { name: 'Access tokens' }).click();
    await page.getByRole('heading', { name: 'Access tokens' }).waitFor();
    await page.getByLabel('Name').fill('laptop script');
    await page.getByLabel('Expires').fill('2099-12-31');
    expect(await page.getByLabel('Scope').locator('option').allTextContents()).toEqual(['reader']);
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.getByRole('textbox', { name: 'New token' }).inputValue();
    expect(secret).toMatch(/^kb_pat_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // The token works, and its use shows in the list.
    await app.t.http().get('/api/me').set('Authorization', `Bearer ${secret}`).expect(200);
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('textbox', { name: 'New token' }).count()).toBe(0);
    await page.reload();
    const row = page.getByRole('row', { name: /laptop script/ });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/reader.*Dec 31, 2099.*(now|second|minute)/);

    await row.getByRole('button', { name: 'Revoke laptop script' }).click();
    await page
      .getByRole('dialog', { name: /Revoke/ })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await row.waitFor({ state: 'detached' });
    // Focus went back to the page, and the token no longer works.
    await app.t.http().get('/api/me').set('Authorization', `Bearer ${secret}`).expect(401);
  });
});
