import type { Page } from 'playwright-core';
import { createPage, insertPagesDirectly } from '../support/pages';
import {
  newContext,
  seriousA11yViolations,
  signIn,
  useConsoleApp,
  type ConsoleApp,
} from './console-app';

/** Issue 26, item 1: "Move to bin" and "Move" on a page, and old addresses that still lead there. */
describe('console: moving pages and the bin', () => {
  const h = useConsoleApp({ signIn: 'editor' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(() => ({ app, page } = h));

  const moveDialog = () => page.getByRole('dialog', { name: 'Move page' });
  const actions = (p: Page) => p.getByRole('toolbar', { name: 'Page actions' });

  async function moveTo(slug: string, options: { subtree?: boolean; rewrite?: boolean } = {}) {
    await actions(page).getByRole('button', { name: 'Move', exact: true }).click();
    await moveDialog().getByLabel('New slug').fill(slug);
    if (options.subtree) await moveDialog().getByLabel('Include pages under it').check();
    if (options.rewrite) await moveDialog().getByLabel('Update links in other pages').check();
    await moveDialog().getByRole('button', { name: 'Move', exact: true }).click();
  }

  it('moves a page with its links updated; its old address leads to the new one', async () => {
    await createPage(app.as.editor, 'guides/deploy', { title: 'Deploy' });
    await createPage(app.as.editor, 'index', { content: 'Read [deploy](/guides/deploy).' });
    await page.goto('/wiki/guides/deploy');
    await page.getByRole('heading', { name: 'Deploy', exact: true }).waitFor();
    await moveTo('runbooks/deploy', { rewrite: true });

    await page.waitForURL('**/wiki/runbooks/deploy');
    await page.getByRole('heading', { name: 'Deploy', exact: true }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Moved from' }).textContent()).toBe(
      'Moved from guides/deploy.',
    );
    expect((await app.as.reader.get('/api/pages/index').expect(200)).body.content).toBe(
      'Read [deploy](/runbooks/deploy).',
    );

    // The old address: the console follows the redirect and says where the page came from.
    await page.goto('/wiki/guides/deploy');
    await page.waitForURL('**/wiki/runbooks/deploy');
    await page.getByText('Moved from guides/deploy.').waitFor();
  });

  it('answers a taken slug in the dialog and moves nothing', async () => {
    await createPage(app.as.editor, 'team/a', { title: 'Team A' });
    await createPage(app.as.editor, 'team/b', { title: 'Team B' });
    await page.goto('/wiki/team/a');
    await page.getByRole('heading', { name: 'Team A', exact: true }).waitFor();
    await moveTo('team/b');
    await moveDialog().getByRole('alert').getByText('team/b').waitFor();
    expect(await moveDialog().getByRole('alert').textContent()).toContain(
      'Live pages use the slug: team/b. Nothing was moved.',
    );
    expect(await seriousA11yViolations(page)).toEqual([]);
    await app.as.reader.get('/api/pages/team/a').expect(200);
    await moveDialog().getByRole('button', { name: 'Cancel' }).click();
    await moveDialog().waitFor({ state: 'detached' });
  });

  it('moves a folder of 1,000 pages; old addresses of pages under it lead to the new ones', async () => {
    await createPage(app.as.editor, 'archive', { title: 'Archive' });
    await insertPagesDirectly(app.t, 'archive', 1000);
    await page.goto('/wiki/archive');
    await page.getByRole('heading', { name: 'Archive', exact: true }).waitFor();
    await moveTo('history', { subtree: true });
    await page.waitForURL('**/wiki/history', { timeout: 60_000 });
    await page.getByText('Moved from archive, with 1000 pages under it.').waitFor();

    const old = await app.as.reader.get('/api/pages/archive/p0500').expect(308);
    expect(old.headers.location).toBe('/api/pages/history/p0500');
    await page.goto('/wiki/archive/p0500');
    await page.waitForURL('**/wiki/history/p0500');
    await page.getByRole('heading', { name: 'P 500', exact: true }).waitFor();
    await page.getByText('Moved from archive/p0500.').waitFor();
  }, 120_000);

  it('offers Move to editors only, Move to bin to administrators only', async () => {
    await createPage(app.as.editor, 'roles', { title: 'Roles' });
    await page.goto('/wiki/roles');
    await page.getByRole('heading', { name: 'Roles', exact: true }).waitFor();
    await actions(page).getByRole('button', { name: 'Move', exact: true }).waitFor();
    expect(await actions(page).getByRole('button', { name: 'Move to bin' }).count()).toBe(0);

    const readerContext = await newContext(h.browser, app);
    try {
      const readerPage = await readerContext.newPage();
      await signIn(readerPage, app.reader, '/wiki/roles');
      await readerPage.getByRole('heading', { name: 'Roles', exact: true }).waitFor();
      expect(await actions(readerPage).getByRole('button', { name: /^Move/ }).count()).toBe(0);
    } finally {
      await readerContext.close();
    }
  });

  it('moves a page to the bin after a dialog naming it and the pages that link to it', async () => {
    await createPage(app.as.editor, 'old-policy', { title: 'Old policy' });
    await createPage(app.as.editor, 'hr', { content: 'See [policy](/old-policy).' });
    await createPage(app.as.editor, 'legal', { content: 'Also [policy](old-policy).' });
    const adminContext = await newContext(h.browser, app);
    try {
      const admin = await adminContext.newPage();
      await signIn(admin, app.admin, '/wiki/old-policy');
      await admin.getByRole('heading', { name: 'Old policy', exact: true }).waitFor();
      await actions(admin).getByRole('button', { name: 'Move to bin' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Move to bin' });
      await dialog.waitFor();
      const description = await dialog.locator('.dialog__description').textContent();
      expect(description).toContain('“Old policy” (old-policy) goes to the bin');
      expect(description).toContain('2 pages link to it');
      expect(await seriousA11yViolations(admin)).toEqual([]);
      await dialog.getByRole('button', { name: 'Move to bin' }).click();
      await admin.waitForURL((url) => url.pathname === '/');
      await app.as.admin.get('/api/pages/old-policy').expect(404);
      const bin = await app.as.admin.get('/api/bin').expect(200);
      expect(bin.body.items.map((i: { slug: string }) => i.slug)).toEqual(['old-policy']);
    } finally {
      await adminContext.close();
    }
  });
});
