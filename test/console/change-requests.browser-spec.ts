import type { Page } from 'playwright-core';
import { newContext, signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { createPage, updatePage } from '../support/pages';

const TEXT = ['Install it.', '', 'Run it.', '', 'Done.'].join('\n');

/** Issue 31: change requests made in the console, reviewed with the link report, merged. */
describe('console: change requests and protected paths', () => {
  const h = useConsoleApp({ signIn: 'editor' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(() => ({ app, page } = h));

  const stored = async (slug: string) =>
    (await app.as.admin.get(`/api/pages/${slug}`).expect(200)).body;

  async function replaceText(p: Page, text: string): Promise<void> {
    await p.getByRole('textbox', { name: 'Content' }).click();
    await p.keyboard.press('Control+A');
    await p.keyboard.type(text);
  }

  async function screenshots(p: Page, name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await p.evaluate((s) => document.documentElement.setAttribute('data-theme', s), scheme);
      await p.setViewportSize({ width: 1280, height: 900 });
      await p.screenshot({ path: `/tmp/review-${name}-desktop-${scheme}.png`, fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: `/tmp/review-${name}-phone-${scheme}.png`, fullPage: true });
    }
    await p.setViewportSize({ width: 1280, height: 800 });
    await p.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  }

  it('refuses a direct save under a protected path, proposes, reviews and merges', async () => {
    await app.as.admin
      .put('/api/protected-paths')
      .send([{ prefix: 'policies', approvals: 1 }])
      .expect(200);
    await createPage(app.as.admin, 'policies/leave', { title: 'Leave', content: TEXT });

    await page.goto('/edit/policies/leave');
    await replaceText(
      page,
      [
        'Install it with npm.',
        '',
        'Run it.',
        '',
        'Done.',
        '',
        'See [the rules](/policies/nowhere).',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('change through a change request').waitFor();
    expect((await stored('policies/leave')).content).toBe(TEXT);

    await page.getByRole('button', { name: 'Propose changes' }).click();
    await page.waitForURL(/\/change-requests\/\d+$/);
    const id = Number(page.url().split('/').pop());
    await page.getByRole('heading', { name: `#${id} Changes to Leave` }).waitFor();
    const changes = page.getByRole('region', { name: 'Changes' });
    await changes.getByText('Install it with npm.').first().waitFor();
    const links = page.getByRole('region', { name: 'Links' });
    await links.getByText('policies/leave:7: broken link /policies/nowhere').waitFor();
    await page.getByText('1 more approval needed').waitFor();
    // The author may not approve their own request, and merging waits for the approval.
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    await changes.getByRole('button', { name: 'Rendered' }).click();
    await changes
      .getByRole('region', { name: 'Proposed' })
      .getByText('Install it with npm.')
      .waitFor();
    await screenshots(page, 'change-request');

    // Someone edits another line meanwhile: it merges alongside.
    await updatePage(app.as.admin, 'policies/leave', {
      content: TEXT.replace('Run it.', 'Run it daily.'),
    });

    // A second person approves and merges.
    const context = await newContext(h.browser, app);
    const second = await context.newPage();
    await signIn(second, app.admin, `/change-requests/${id}`);
    await second.getByRole('button', { name: 'Approve' }).click();
    await second.getByText('approvals complete').waitFor();
    await second.getByRole('button', { name: 'Merge' }).click();
    await second.getByText('merged', { exact: true }).first().waitFor();
    const merged = await stored('policies/leave');
    expect(merged.content).toBe(
      [
        'Install it with npm.',
        '',
        'Run it daily.',
        '',
        'Done.',
        '',
        'See [the rules](/policies/nowhere).',
      ].join('\n'),
    );
    await context.close();

    // The list shows it among the merged ones.
    await page.goto('/change-requests');
    await page.getByRole('heading', { name: 'Change requests' }).waitFor();
    await page.getByLabel('State').selectOption('merged');
    await page.getByRole('link', { name: `#${id} Changes to Leave` }).waitFor();
    await screenshots(page, 'change-requests');
  });

  it('blocks the merge of an overlapping concurrent edit and shows the conflict', async () => {
    await createPage(app.as.admin, 'guides/run', { title: 'Run', content: TEXT });
    await page.goto('/edit/guides/run');
    await replaceText(page, TEXT.replace('Run it.', 'Run it twice.'));
    await page.getByRole('button', { name: 'Propose changes' }).click();
    await page.waitForURL(/\/change-requests\/\d+$/);
    await updatePage(app.as.admin, 'guides/run', {
      content: TEXT.replace('Run it.', 'Run it once.'),
    });
    await page.reload();
    await page.getByText('Merging is blocked').waitFor();
    await page.getByText('overlapping edits').waitFor();
    expect(await page.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    expect((await stored('guides/run')).content).toContain('Run it once.');
    await screenshots(page, 'change-request-conflict');
  });
});
