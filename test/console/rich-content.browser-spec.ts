import type { BrowserContext, Page } from 'playwright-core';
import { createPage } from '../support/pages';
import { seriousA11yViolations, useConsoleApp, type ConsoleApp } from './console-app';

const RUNBOOK = [
  '[[toc]]',
  '',
  '## Deploy',
  '',
  'Run it[^1]:',
  '',
  '```ts',
  'const version: number = 42;',
  'deploy(version);',
  'notify("done");',
  '```',
  '',
  '## Capacity',
  '',
  'The load is $L = \\lambda W$ :rocket:.',
  '',
  '$$',
  '\\sum_{i=1}^{n} x_i',
  '$$',
  '',
  '## Rollback',
  '',
  'Redeploy the previous version.',
  '',
  '[^1]: On a weekday.',
].join('\n');

/** Issue 33, first part, as a reader sees it: highlighted code with Copy, math, contents. */
describe('console: highlighted code, math, table of contents and footnotes', () => {
  const h = useConsoleApp({ signIn: 'reader' });
  let app: ConsoleApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ app, context, page } = h);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await createPage(app.as.editor, 'ops/runbook', { title: 'Runbook', content: RUNBOOK });
  });

  it('shows coloured tokens, typeset math in KaTeX fonts, contents and footnotes', async () => {
    await page.goto('/wiki/ops/runbook');
    const article = page.locator('.prose').first();
    await article.locator('.hljs-keyword').first().waitFor();
    const colours = await article.evaluate((root) => {
      const colour = (selector: string) => getComputedStyle(root.querySelector(selector)!).color;
      return { keyword: colour('.hljs-keyword'), plain: colour('pre code') };
    });
    expect(colours.keyword).not.toBe(colours.plain);

    const math = article.locator('.katex').first();
    await math.waitFor();
    await page.evaluate(() => document.fonts.ready);
    expect(await article.locator('.katex-display').count()).toBe(1);
    const font = await math
      .locator('.mord.mathnormal')
      .first()
      .evaluate((el) => getComputedStyle(el).fontFamily);
    expect(font).toContain('KaTeX_Math');

    // The author's [[toc]] is the page's contents: no second "Contents" list beside it.
    expect(await page.getByRole('navigation', { name: 'Contents' }).count()).toBe(0);
    const toc = article.locator('nav.kb-toc');
    await toc.getByRole('link', { name: 'Capacity' }).click();
    expect(new URL(page.url()).hash).toBe('#capacity');
    await expect(article.locator('section.footnotes').innerText()).resolves.toContain(
      'On a weekday.',
    );
  });

  it('copies a code block and turns line numbers on for every block', async () => {
    await page.goto('/wiki/ops/runbook');
    const block = page.locator('.code-block').first();
    await block.hover();
    await block.getByRole('button', { name: 'Copy' }).click();
    await block.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'const version: number = 42;\ndeploy(version);\nnotify("done");',
    );

    const lines = block.getByRole('button', { name: 'Line numbers' });
    expect(await lines.getAttribute('aria-pressed')).toBe('false');
    await lines.click();
    expect(await lines.getAttribute('aria-pressed')).toBe('true');
    expect(await block.locator('.code-block__gutter').innerText()).toBe('1\n2\n3');
    // Remembered: the next page view numbers its blocks too.
    await page.reload();
    await page.locator('.code-block--numbered').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });
});
