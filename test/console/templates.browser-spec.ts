import type { Page } from 'playwright-core';
import {
  newContext,
  seriousA11yViolations,
  signIn,
  useConsoleApp,
  type ConsoleApp,
} from './console-app';

/** Issue 33, item 6: "New page from template" and the "Choose a template" dialog. */
describe('console: new page from a template', () => {
  const h = useConsoleApp({ signIn: 'editor' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(() => ({ app, page } = h));

  const dialog = () => page.getByRole('dialog', { name: 'Choose a template' });

  it('lists the templates by name with a preview and creates a page with the prompted fields', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'New page from template' }).click();
    for (const name of ['Decision record', 'How-to guide', 'Meeting notes', 'Runbook'])
      await dialog()
        .getByRole('radio', { name: new RegExp(`^${name}`) })
        .waitFor();
    await dialog()
      .getByRole('radio', { name: /^Runbook/ })
      .check();
    const preview = dialog().getByRole('region', { name: 'Preview of Runbook' });
    await preview.getByRole('heading', { name: 'Procedure' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await dialog().getByRole('textbox', { name: 'Title' }).fill('Payments API');
    expect(await dialog().getByRole('textbox', { name: 'Slug' }).inputValue()).toBe('payments-api');
    await dialog().getByRole('textbox', { name: 'Slug' }).fill('ops/payments-api');
    await dialog().getByRole('textbox', { name: 'Service' }).fill('payments');
    await dialog().getByRole('button', { name: 'Create page' }).click();

    await page.waitForURL('**/wiki/ops/payments-api');
    await page.getByRole('heading', { name: 'Payments API', level: 1 }).first().waitFor();
    await page.getByText('Service: payments').waitFor();
    const stored = (await app.as.reader.get('/api/pages/ops/payments-api').expect(200)).body;
    expect(stored.content).toContain(`Service: **payments** · Owner: ${app.editor.username}`);
    expect(stored.tags).toEqual(['runbook']);
    expect(stored.reviewIntervalDays).toBe(90);
  });

  it('says why a taken slug cannot be used and creates nothing', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'New page from template' }).click();
    await dialog()
      .getByRole('radio', { name: /^Meeting notes/ })
      .check();
    await dialog().getByRole('textbox', { name: 'Title' }).fill('Payments API');
    await dialog().getByRole('textbox', { name: 'Slug' }).fill('ops/payments-api');
    await dialog().getByRole('button', { name: 'Create page' }).click();
    await dialog().getByRole('alert').getByText('already exists').waitFor();
    expect(await dialog().isVisible()).toBe(true);
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('is not offered to readers', async () => {
    const context = await newContext(h.browser, app);
    const reader = await context.newPage();
    await signIn(reader, app.reader);
    await reader.getByRole('heading', { name: /Welcome/ }).waitFor();
    expect(await reader.getByRole('button', { name: 'New page from template' }).count()).toBe(0);
    await context.close();
  });
});
