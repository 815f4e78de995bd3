import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seriousA11yViolations, useConsoleApp } from './console-app';
import { createPage } from '../support/pages';
import { binary } from '../support/export-fixtures';
import { pdfText, startPdfService, type RunningPdfService } from '../support/pdf';

/**
 * Issue 33's showcase: docs/showcase/showcase.md (code, math, Mermaid and Graphviz diagrams,
 * footnotes, a table of contents, details, emoji, callouts, tables, task lists) in the page
 * view, its Copy buttons, and its real PDF. UPDATE_SCREENSHOTS=1 (or SHOWCASE_SCREENSHOTS=dir)
 * writes the page at desktop and phone width in light and dark, and the PDF's pages rasterised
 * with pdftoppm (poppler-utils; without it the PDF images are skipped, saying so).
 */
const SHOWCASE_DIR = join(__dirname, '..', '..', 'docs', 'showcase');
const SHOWCASE = readFileSync(join(SHOWCASE_DIR, 'showcase.md'), 'utf8');
const shots =
  process.env.SHOWCASE_SCREENSHOTS ??
  (process.env.UPDATE_SCREENSHOTS === '1' ? SHOWCASE_DIR : null);

/** Whether pdftoppm can rasterise PDFs here. */
function hasPdftoppm(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('console: the rich-content showcase', () => {
  let pdf: RunningPdfService;
  beforeAll(async () => (pdf = await startPdfService()), 180_000);
  afterAll(() => pdf?.stop());
  const h = useConsoleApp({ env: () => ({ PDF_SERVICE_URL: pdf.url }), signIn: 'editor' });

  beforeAll(async () => {
    await createPage(h.app.as.editor, 'showcase', { title: 'Showcase', content: SHOWCASE });
    if (shots) mkdirSync(shots, { recursive: true });
  });

  it('shows every feature in the page view, with Copy on each code block', async () => {
    const { page } = h;
    await page.goto('/wiki/showcase');
    const prose = page.locator('.prose').first();
    await prose.getByRole('img', { name: 'Mermaid diagram' }).first().waitFor();
    // Highlighted code: four blocks, token spans, the Confluence brush name mapped.
    expect(await prose.locator('pre code.language-ts span.hljs-keyword').count()).toBeGreaterThan(
      3,
    );
    expect(await prose.locator('pre code.language-python span.hljs-string').count()).toBe(1);
    expect(await prose.locator('pre code.language-bash span').count()).toBeGreaterThan(0);
    // (and on the undrawn pie chart's source)
    expect(await prose.getByRole('button', { name: 'Copy' }).count()).toBe(5);
    // Math, drawn by KaTeX: three inline formulas, the display block and the math fence.
    expect(await prose.locator('.katex').count()).toBe(5);
    expect(await prose.locator('.kb-math-error').count()).toBe(0);
    // Diagrams: two Mermaid, one Graphviz; the pie chart is source with its note.
    const mermaid = prose.locator('.kb-diagram').getByRole('img', { name: 'Mermaid diagram' });
    expect(await mermaid.count()).toBe(2);
    expect(await mermaid.first().locator('text').allTextContents()).toEqual(
      expect.arrayContaining(['Commit', 'CI green?', 'Canary', 'Production', 'yes']),
    );
    expect(await mermaid.nth(1).locator('text').allTextContents()).toEqual(
      expect.arrayContaining(['Engineer', 'kb', 'Renderer', 'render at save time']),
    );
    const dot = prose.locator('.kb-diagram').getByRole('img', { name: 'Graphviz diagram' });
    expect(await dot.locator('text').allTextContents()).toEqual(
      expect.arrayContaining(['Load balancer', 'MariaDB']),
    );
    for (const svg of await prose.locator('.kb-diagram svg').all())
      expect((await svg.boundingBox())!.height).toBeGreaterThan(40);
    await prose.getByText(/Mermaid diagram not drawn: .*"pie title Incidents by cause"/).waitFor();
    // The rest: contents, footnotes, details, emoji, callout, task list, table.
    expect(await prose.locator('nav.kb-toc a').allTextContents()).toEqual(
      expect.arrayContaining(['Checklist', 'Code', 'Math', 'Diagrams', 'Rollback']),
    );
    await prose.locator('section.footnotes').getByText('Nobody is around').waitFor();
    await prose.locator('details summary').getByText('Rollback steps').waitFor();
    await prose.getByRole('heading', { name: 'Release runbook 🚀' }).waitFor();
    await prose.locator('.markdown-alert-warning').waitFor();
    expect(await prose.locator('input[type="checkbox"]').count()).toBe(3);
    expect(await prose.locator('table td').count()).toBe(9);
    // (Known, not this page's: a task list's disabled checkbox has no label of its own.)
    const violations = (await seriousA11yViolations(page)).filter(
      (v) => !(v.id === 'label' && v.targets.every((t) => t.includes('task-list-item-checkbox'))),
    );
    expect(violations).toEqual([]);

    // The print preview shows the same diagrams and formulas.
    await page.getByRole('button', { name: 'Print…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print' });
    await dialog.getByRole('button', { name: 'Preview print' }).click();
    const preview = page.frameLocator('iframe[title="Print preview"]');
    await preview.getByRole('img', { name: 'Mermaid diagram' }).first().waitFor();
    expect(await preview.locator('.kb-diagram svg').count()).toBe(3);
    expect(await preview.locator('.katex').count()).toBe(5);
    await page.keyboard.press('Escape');

    if (!shots) return;
    for (const [device, viewport, colorScheme] of [
      ['desktop', { width: 1280, height: 800 }, 'light'],
      ['phone', { width: 390, height: 844 }, 'light'],
      ['desktop', { width: 1280, height: 800 }, 'dark'],
      ['phone', { width: 390, height: 844 }, 'dark'],
    ] as const) {
      const context = await h.browser.newContext({ baseURL: h.app.url, viewport, colorScheme });
      try {
        await context.addCookies(await h.context.cookies());
        const shown = await context.newPage();
        await shown.goto('/wiki/showcase');
        await shown.locator('.kb-diagram svg').nth(2).waitFor();
        await shown.locator('.katex').first().waitFor();
        await shown.evaluate(() => document.fonts.ready);
        const suffix = colorScheme === 'dark' ? `${device}-dark` : device;
        await shown.screenshot({ path: join(shots, `showcase-${suffix}.png`), fullPage: true });
      } finally {
        await context.close();
      }
    }
  }, 120_000);

  it('prints every feature into a real PDF: formulas, diagram labels, code', async () => {
    const res = await h.app.as.editor
      .get('/export/pdf/showcase')
      .buffer(true)
      .parse(binary)
      .expect(200);
    const body = res.body as Buffer;
    const text = (await pdfText(body)).replace(/\s+/g, ' ');
    // Mermaid and Graphviz labels, drawn as SVG text.
    for (const label of ['CI green?', 'Canary', 'Engineer', 'render at save time', 'Load balancer'])
      expect(text).toContain(label);
    // KaTeX's formulas (their glyphs), code, footnote, the undrawn pie as source with its note.
    for (const part of [
      'MTBF',
      'MTTR',
      'error_budget',
      'Nobody is around',
      'Mermaid diagram not drawn',
    ])
      expect(text).toContain(part);

    if (!shots) return;
    if (!hasPdftoppm()) {
      console.warn('pdftoppm is missing (apt-get install poppler-utils): PDF pages not rasterised');
      return;
    }
    const work = mkdtempSync(join(tmpdir(), 'kb-showcase-'));
    try {
      execFileSync('pdftoppm', ['-png', '-r', '80', '-', join(work, 'page')], { input: body });
      const pages = readdirSync(work)
        .filter((f) => f.endsWith('.png'))
        .sort();
      expect(pages.length).toBeGreaterThan(0);
      for (const [i, file] of pages.entries())
        renameSync(join(work, file), join(shots, `showcase-pdf-page-${i + 1}.png`));
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);
});
