import type { Page } from 'playwright-core';
import { AttachmentTextIndexer } from '../../src/media/public-api';
import { pdfWithText } from '../support/documents';
import { seriousA11yViolations, useConsoleApp, type ConsoleApp } from './console-app';

/** The search screen: facets and filter chips, "Did you mean", sorting, the syntax popover. */
describe('console: search with filters, facets and spelling help', () => {
  const h = useConsoleApp({ seed: true, signIn: 'reader' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(() => {
    ({ app, page } = h);
  });

  const results = () => page.getByRole('list', { name: 'Search results' });
  const titles = async () => results().locator('.result__title').allTextContents();

  it('narrows results with a facet, shows it as a chip, and removes it', async () => {
    await page.goto('/search?q=guide');
    await results().getByRole('listitem').first().waitFor();
    const all = await titles();
    expect(all.length).toBeGreaterThan(1);
    const refine = page.getByRole('complementary', { name: 'Refine' });
    await refine.getByRole('link', { name: /^tools\s*1$/ }).click();
    await page.waitForURL(/q=guide(\+|%20)tag%3Atools/);
    await page.getByRole('list', { name: 'Filters' }).getByText('tools').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('[aria-label="Search results"] li').length === 1,
    );
    expect(await titles()).toEqual(['Tools']);
    await page.getByRole('link', { name: 'Remove tag:tools' }).click();
    await page.waitForURL(/q=guide$/);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[aria-label="Search results"] li').length === n,
      all.length,
    );
  });

  it('offers a corrected spelling that searches when followed', async () => {
    await page.goto('/search?q=onbaording');
    const suggestion = page.getByText('Did you mean');
    await suggestion.waitFor();
    await suggestion.getByRole('link', { name: 'onboarding' }).click();
    await page.waitForURL(/q=onboarding$/);
    await results().getByRole('listitem').first().waitFor();
    expect(await titles()).toContain('Onboarding');
  });

  it('sorts by update time and explains the syntax', async () => {
    await page.goto('/search?q=guide');
    await results().getByRole('listitem').first().waitFor();
    await page.getByRole('combobox', { name: 'Sort' }).selectOption('updated');
    await page.waitForURL(/sort=updated/);
    await results().getByRole('listitem').first().waitFor();
    const api = await app.as.reader.get('/api/search?q=guide&sort=updated').expect(200);
    await page.waitForFunction(
      (first) => document.querySelector('.result__title')?.textContent === first,
      api.body.items[0].title as string,
    );
    await page.getByRole('button', { name: 'Search syntax' }).click();
    const help = page.getByRole('region', { name: 'Search syntax' });
    await help.getByText('"rolling update"').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });

  it('finds a filter-only query typed in the search box', async () => {
    await page.goto('/');
    await page.getByRole('searchbox', { name: 'Search' }).fill('tag:runbook');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=tag%3Arunbook/);
    await results().getByRole('listitem').first().waitFor();
    expect(await titles()).toEqual(['Deploy to production']);
  });

  it('shows an attachment hit with the page it is on', async () => {
    const stored = await app.as.editor
      .post('/api/attachments')
      .attach('file', pdfWithText(['Capybara maintenance window']), {
        filename: 'window.pdf',
        contentType: 'application/pdf',
      })
      .expect(201);
    const id = stored.body.id as string;
    await app.as.editor
      .post('/api/pages')
      .send({
        slug: 'ops/maintenance',
        title: 'Maintenance',
        content: `[window](/api/attachments/${id}/content)`,
      })
      .expect(201);
    await app.t.get(AttachmentTextIndexer).idle();
    await page.goto('/search?q=capybara');
    const hit = results().getByRole('listitem').filter({ hasText: 'window.pdf' });
    await hit.waitFor();
    expect(await hit.getByRole('link', { name: 'window.pdf' }).getAttribute('href')).toBe(
      `/api/attachments/${id}/content`,
    );
    await hit.getByText('Attachment').waitFor();
    expect(await hit.locator('mark').allTextContents()).toEqual(['Capybara']);
    if (process.env.SCREENSHOT_DIR) {
      const dir = process.env.SCREENSHOT_DIR;
      await page.screenshot({ path: `${dir}/search-attachment-desktop-light.png` });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${dir}/search-attachment-phone-dark.png` });
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await hit.getByRole('link', { name: 'Maintenance' }).click();
    await page.waitForURL(/\/ops\/maintenance$/);
  });
});
