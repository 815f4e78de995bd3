import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { useConsoleApp, type ConsoleApp } from './console-app';
import { pdfText, startPdfService, type RunningPdfService } from '../support/pdf';

/**
 * Flow 6: the print dialog. Overrides apply to one output only and are discarded when the dialog
 * closes: the stored page and GET /export/pdf keep the saved values.
 */
describe('console: the print dialog', () => {
  let pdf: RunningPdfService;
  beforeAll(async () => (pdf = await startPdfService()), 180_000);
  afterAll(() => pdf?.stop());
  const h = useConsoleApp({
    env: () => ({ PDF_SERVICE_URL: pdf.url }),
    seed: true,
    signIn: 'reader',
  });
  let app: ConsoleApp;
  let page: Page;
  beforeAll(() => ({ app, page } = h));

  const dialog = () => page.getByRole('dialog', { name: 'Print' });
  const field = (name: string) => dialog().getByRole('textbox', { name, exact: true });

  async function openDialog(): Promise<void> {
    await page.getByRole('button', { name: 'Print…' }).click();
    await field('customer').waitFor();
  }

  it('lists the variables with saved values, previews, prints and downloads with overrides', async () => {
    await page.goto('/wiki/runbooks/deploy');
    await openDialog();
    const values = async () =>
      Object.fromEntries(
        await Promise.all(
          ['customer', 'region', 'company', 'support_email'].map(async (n) => [
            n,
            await field(n).inputValue(),
          ]),
        ),
      );
    expect(await values()).toEqual({
      customer: 'Globex',
      region: 'eu-west-1',
      company: 'ACME Corp',
      support_email: 'help@acme.example',
    });

    await field('customer').fill('Initech');
    await field('company').fill('Umbrella <script>window.__pwned = 1</script>');
    await dialog().getByRole('button', { name: 'Preview print' }).click();
    const frame = dialog().locator('iframe[title="Print preview"]');
    await page.frameLocator('iframe[title="Print preview"]').getByText('Initech').first().waitFor();
    // Sandboxed: no scripts, ever; and the override's markup arrived as text.
    expect(await frame.getAttribute('sandbox')).not.toContain('allow-scripts');
    const text = await page
      .frameLocator('iframe[title="Print preview"]')
      .locator('body')
      .textContent();
    expect(text).toContain('prepared by Umbrella');
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();

    // Print prints that same preview document.
    await page.evaluate(() => {
      const w = document.querySelector<HTMLIFrameElement>(
        'iframe[title="Print preview"]',
      )!.contentWindow!;
      (w as unknown as { print: () => void }).print = () =>
        ((window as unknown as { __printed: number }).__printed = 1);
    });
    await dialog().getByRole('button', { name: 'Print', exact: true }).click();
    await page.waitForFunction(() => (window as unknown as { __printed?: number }).__printed === 1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog().getByRole('button', { name: 'PDF', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('deploy.pdf');
    const pdfContent = await pdfText(readFileSync((await download.path())!));
    expect(pdfContent).toContain('Initech');
    expect(pdfContent).not.toContain('Globex');
  }, 180_000);

  it('shows a 422 next to its field', async () => {
    await field('region').fill('x'.repeat(10_001));
    await dialog().getByRole('button', { name: 'Preview print' }).click();
    await dialog()
      .getByText(/10,?000 characters|too long/i)
      .first()
      .waitFor();
    expect(await field('region').getAttribute('aria-invalid')).toBe('true');
    expect(await field('customer').getAttribute('aria-invalid')).toBeNull();
  });

  it('discards the overrides on Close: the saved values come back and nothing stored changed', async () => {
    const before = (await app.as.admin.get('/api/pages/runbooks/deploy').expect(200)).body;
    await dialog().getByRole('button', { name: 'Close' }).click();
    await dialog().waitFor({ state: 'detached' });
    // Focus returns to the button that opened the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Print…');

    // Keyboard: Enter opens it again, Escape closes it.
    await page.keyboard.press('Enter');
    await field('customer').waitFor();
    expect(await field('customer').inputValue()).toBe('Globex');
    expect(await field('region').inputValue()).toBe('eu-west-1');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Print…');

    const after = (await app.as.admin.get('/api/pages/runbooks/deploy').expect(200)).body;
    expect(after).toEqual(before);
    expect(after.variables).toEqual({ customer: 'Globex', region: 'eu-west-1' });
    const saved = await app.as.reader
      .get('/export/pdf/runbooks/deploy')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const text = await pdfText(saved.body as Buffer);
    expect(text).toContain('Globex');
    expect(text).toContain('ACME Corp');
    expect(text).not.toContain('Initech');
  }, 180_000);
});
