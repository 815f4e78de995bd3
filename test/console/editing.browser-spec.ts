import type { Page } from 'playwright-core';
import { createPage, updatePage } from '../support/pages';
import { png } from '../support/images';
import { newContext, seriousA11yViolations, signIn, useConsoleApp } from './console-app';

/**
 * Issue 26, items 7, 9, 12 and 13: slugs from titles, the editor (Ctrl+S, change summary,
 * toolbar, list continuation, HTML paste, folded and phone diffs), the ARIA page tree, the
 * Export menu's neighbours (Dark mode) and the graph at 50 nodes.
 */
describe('console: slugs, editing, the page tree, dark mode and the graph', () => {
  const h = useConsoleApp({ signIn: 'editor', seed: true });
  let page: Page;
  beforeAll(() => ({ page } = h));

  const content = (p: Page = page) => p.getByRole('textbox', { name: 'Content' });
  const preview = (p: Page = page) => p.getByRole('region', { name: 'Preview' });
  const stored = async (slug: string) =>
    (await h.app.as.admin.get(`/api/pages/${slug}`).expect(200)).body;
  const editorText = (p: Page = page) =>
    p.evaluate(() =>
      Array.from(document.querySelectorAll('.cm-line'))
        .map((l) => l.textContent)
        .join('\n'),
    );

  async function typeInto(p: Page, text: string): Promise<void> {
    await content(p).click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(text);
  }

  it('proposes the slug from the title under the folder it was started from, editable', async () => {
    // "New page here" at the end of an open folder in the tree starts under that folder.
    await page.goto('/');
    const tree = page.getByRole('tree', { name: 'Pages' });
    await tree.getByRole('treeitem', { name: 'Handbook' }).focus();
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'New page here' }).click();
    await page.waitForURL('**/new?parent=handbook');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/');
    await page.getByLabel('Title').fill('Café menü – Größe');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/cafe-menue-groesse');
    await page.getByLabel('Title').fill('Привет мир');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/привет-мир');
    await page.getByLabel('Title').fill('Team Ünits & Roles');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/team-uenits-roles');

    // Typed spaces become dashes; once edited, the slug no longer follows the title.
    await page.getByLabel('Slug').fill('handbook/our teams');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/our-teams');
    await page.getByLabel('Title').fill('Teams');
    expect(await page.getByLabel('Slug').inputValue()).toBe('handbook/our-teams');

    // The preview works whatever the slug is (here a folder and a trailing slash).
    await page.getByLabel('Slug').fill('handbook/');
    await typeInto(page, 'Hello **there**, see [tools](tools).');
    await preview().locator('strong', { hasText: 'there' }).waitFor();
    expect(await preview().getByRole('alert').count()).toBe(0);
    await page.getByLabel('Slug').fill('handbook/our teams/..');
    await typeInto(page, ' More.');
    await preview().getByText('More.', { exact: false }).waitFor();
    expect(await preview().getByText('could not be rendered').count()).toBe(0);

    // Ctrl+S saves (not the browser's "Save page as"), with the change summary.
    await page.getByLabel('Slug').fill('handbook/teams');
    await page.getByLabel('Summary').fill('First version of the team list');
    await page.keyboard.press('Control+s');
    await page.waitForURL('**/wiki/handbook/teams');
    expect(await stored('handbook/teams')).toMatchObject({ title: 'Teams', revision: 1 });
  });

  it('saves with Ctrl+S from the text, and the Summary reaches the history', async () => {
    await createPage(h.app.as.editor, 'notes/summary', {
      title: 'Summary demo',
      content: 'one',
      owner: 'ada',
    });
    await page.goto('/edit/notes/summary');
    await typeInto(page, '\ntwo');
    await page.getByLabel('Summary').fill('Added line two');
    await content().click();
    await page.keyboard.press('Control+s');
    await page.waitForURL('**/wiki/notes/summary');
    const revisions = (await h.app.as.admin.get('/api/revisions?slug=notes/summary').expect(200))
      .body.items;
    expect(revisions[0]).toMatchObject({ revision: 2, summary: 'Added line two' });
    await page.goto('/history/notes/summary');
    const row = page.getByRole('row', { name: /^2 edited/ });
    await row.getByText('Added line two').waitFor();
    // ...and the owner's inbox.
    const ada = await newContext(h.browser, h.app);
    try {
      const inbox = await ada.newPage();
      await signIn(inbox, h.app.admin, '/notifications');
      await inbox.getByText('edith edited Summary demo: “Added line two”').waitFor();
    } finally {
      await ada.close();
    }
    // A summary over the limit is refused next to the field, nothing saved.
    await page.goto('/edit/notes/summary');
    await typeInto(page, '\nthree');
    await page
      .getByLabel('Summary')
      .evaluate((el) => (el as HTMLInputElement).removeAttribute('maxlength'));
    await page.getByLabel('Summary').fill('x'.repeat(501));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('The summary may have at most 500 characters.').waitFor();
    expect((await stored('notes/summary')).revision).toBe(2);
  });

  it('formats with the toolbar and its shortcuts, and continues lists without doubling markers', async () => {
    await page.goto('/new');
    await page.getByLabel('Title').fill('Toolbar');
    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    expect(await toolbar.getByRole('button').evaluateAll((b) => b.map((x) => x.ariaLabel))).toEqual(
      [
        'Heading',
        'Bold',
        'Italic',
        'Link',
        'Bulleted list',
        'Numbered list',
        'Checklist',
        'Code',
        'Quote',
        'Table',
        'Image',
      ],
    );
    expect(
      await toolbar.getByRole('button', { name: 'Bold' }).getAttribute('aria-keyshortcuts'),
    ).toBe('Control+B');
    await typeInto(page, 'Title');
    await toolbar.getByRole('button', { name: 'Heading' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await toolbar.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('strong');
    await page.keyboard.press('End');
    await page.keyboard.type(' and ');
    await page.keyboard.press('Control+i');
    await page.keyboard.type('soft');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('https://example.com');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    // Lists: Enter continues the marker; typing one's own marker after it keeps one. Enter on
    // an empty item ends the list (CodeMirror's Markdown keymap).
    const enter = async (times: number) => {
      for (let i = 0; i < times; i++) await page.keyboard.press('Enter');
    };
    await page.keyboard.type('- one');
    await enter(1);
    await page.keyboard.type('- two');
    await enter(1);
    await page.keyboard.type('three');
    await enter(3);
    await page.keyboard.type('1. first');
    await enter(1);
    await page.keyboard.type('2. second');
    await enter(3);
    await page.keyboard.type('task');
    await toolbar.getByRole('button', { name: 'Checklist' }).click();
    await page.keyboard.press('End');
    await enter(3);
    await page.keyboard.type('x');
    await page.keyboard.press('Shift+Home');
    await toolbar.getByRole('button', { name: 'Code' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('End');
    await enter(2);
    await page.keyboard.type('said');
    await toolbar.getByRole('button', { name: 'Quote' }).click();
    await page.keyboard.press('End');
    await toolbar.getByRole('button', { name: 'Table' }).click();
    const text = await editorText();
    expect(text).toBe(
      [
        '## Title',
        '',
        '**strong** and _soft_ [link text](https://example.com)',
        '',
        '- one',
        '- two',
        '- three',
        '',
        '1. first',
        '2. second',
        '',
        '- [ ] task',
        '',
        '`x`',
        '',
        '> said',
        '',
        '| Column | Column |',
        '| --- | --- |',
        '| Cell | Cell |',
        '',
      ].join('\n'),
    );
    await preview().getByRole('table').waitFor();
    await preview().getByRole('heading', { name: 'Title' }).waitFor();

    // Image uploads a picture and inserts it (at the cursor: the end).
    await content().click();
    await page.keyboard.press('Control+End');
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      toolbar.getByRole('button', { name: 'Image' }).click(),
    ]);
    await chooser.setFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png(2, 2) });
    await page.waitForFunction(() =>
      /!\[dot\.png\]\(\/api\/images\/[^)]+\)/.test(
        Array.from(document.querySelectorAll('.cm-line'))
          .map((l) => l.textContent)
          .join('\n'),
      ),
    );
    await page.getByLabel('Slug').fill('notes/toolbar');
    await page.keyboard.press('Control+s');
    await page.waitForURL('**/wiki/notes/toolbar');
    expect((await stored('notes/toolbar')).content.startsWith(text)).toBe(true);
  });

  it('pastes HTML from a web page, Word or Google Docs as Markdown (turndown, loaded on first paste)', async () => {
    await page.goto('/new');
    await page.getByLabel('Title').fill('Pasted');
    const chunks: string[] = [];
    page.on('response', (r) => {
      if (/html-markdown-[\w-]+\.js$/.test(r.url())) chunks.push(r.url());
    });
    await content().click();
    const html =
      '<meta charset="utf-8"><h2>Agenda</h2><p>Bring <b>laptops</b> and <a href="https://example.com/x">the plan</a>.</p>' +
      '<ul><li>Coffee</li><li>Talks</li></ul><table><tr><th>Who</th><th>When</th></tr><tr><td>Ada</td><td>9:00</td></tr></table>';
    await page.evaluate((data) => {
      const transfer = new DataTransfer();
      transfer.setData('text/html', data);
      transfer.setData('text/plain', 'Agenda Bring laptops');
      const target = document.querySelector('.cm-content')!;
      target.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
      );
    }, html);
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('Agenda'),
    );
    expect(await editorText()).toBe(
      [
        '## Agenda',
        '',
        'Bring **laptops** and [the plan](https://example.com/x).',
        '',
        // turndown's list items, exactly as the Confluence import writes them.
        '-   Coffee',
        '-   Talks',
        '',
        '| Who | When |',
        '| --- | --- |',
        '| Ada | 9:00 |',
      ].join('\n'),
    );
    expect(chunks).toHaveLength(1);
    // Plain text stays plain.
    await page.evaluate(() => {
      const transfer = new DataTransfer();
      transfer.setData('text/plain', '\n**kept** as typed');
      document
        .querySelector('.cm-content')!
        .dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        );
    });
    await page.waitForFunction(() =>
      document.querySelector('.cm-content')?.textContent?.includes('**kept** as typed'),
    );
    await page.getByLabel('Slug').fill('notes/pasted');
    await page.keyboard.press('Control+s');
    await page.waitForURL('**/wiki/notes/pasted');
  });

  it('folds unchanged lines of a diff (three of context, expandable); inline on a phone', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    await createPage(h.app.as.editor, 'notes/long', { title: 'Long', content: lines.join('\n') });
    const changed = [...lines];
    changed[19] = 'line twenty';
    await updatePage(h.app.as.editor, 'notes/long', { content: changed.join('\n') });
    await page.goto('/history/notes/long');
    const diff = page.getByRole('figure');
    await diff.getByText('1 line added, 1 removed.', { exact: false }).waitFor();
    // Lines 17-19 and 21-23 are context; 1-16 and 24-40 are folded.
    const folds = diff.getByRole('button', { name: /^Show \d+ unchanged lines/ });
    expect(await folds.allTextContents()).toEqual([
      'Show 16 unchanged lines (1–16)',
      'Show 17 unchanged lines (24–40)',
    ]);
    expect(await diff.getByText('line 16', { exact: true }).count()).toBe(0);
    expect(await diff.getByText('line 17', { exact: true }).count()).toBe(2);
    await folds.first().click();
    expect(await diff.getByText('line 1', { exact: true }).count()).toBe(2);
    expect(await folds.count()).toBe(1);

    const phone = await newContext(h.browser, h.app, { width: 390, height: 844 });
    try {
      const p = await phone.newPage();
      await signIn(p, h.app.editor, '/history/notes/long');
      const phoneDiff = p.getByRole('figure');
      await phoneDiff.getByText('1 line added, 1 removed.', { exact: false }).waitFor();
      expect(await p.getByRole('button', { name: 'Side by side' }).count()).toBe(0);
      // Inline: one text column, removed and added lines one above the other.
      expect(await phoneDiff.locator('table.diff__table--split').count()).toBe(0);
      expect(await phoneDiff.locator('tr.diff__del td').last().textContent()).toContain('line 20');
      expect(await phoneDiff.locator('tr.diff__add td').last().textContent()).toContain(
        'line twenty',
      );
      const width = await phoneDiff
        .locator('tr.diff__add td')
        .last()
        .evaluate((td) => td.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(200);
    } finally {
      await phone.close();
    }
  });

  it('is a real ARIA tree: every folder and page a treeitem, arrow keys move and open, Enter opens', async () => {
    await createPage(h.app.as.editor, 'team/alpha/one', { title: 'Alpha one' });
    await createPage(h.app.as.editor, 'team/beta', { title: 'Beta' });
    await page.goto('/');
    const tree = page.getByRole('tree', { name: 'Pages' });
    const items = tree.getByRole('treeitem');
    const labels = () =>
      items.evaluateAll((els) =>
        els.map((e) => (e.querySelector('.tree__label') ?? e).textContent?.trim()),
      );
    await tree.getByRole('treeitem', { name: 'Handbook' }).waitFor();
    // Top level: handbook (a page with pages below), notes, ops, runbooks, team (folders).
    expect(await labels()).toEqual(['Handbook', 'notes', 'ops', 'runbooks', 'team']);
    expect(
      await items.evaluateAll((els) => els.map((e) => e.getAttribute('aria-expanded'))),
    ).toEqual(['false', 'false', 'false', 'false', 'false']);
    // One Tab stop; Down moves; Right opens a folder, again goes in; Left goes back out.
    await tree.getByRole('treeitem', { name: 'Handbook' }).focus();
    const focused = () =>
      page.evaluate(() => {
        const item = document.activeElement!;
        return (item.querySelector('.tree__label') ?? item).textContent?.trim();
      });
    expect(await items.evaluateAll((els) => els.filter((e) => e.tabIndex === 0).length)).toBe(1);
    await page.keyboard.press('End');
    expect(await focused()).toBe('team');
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'alpha', exact: true }).waitFor();
    expect(await tree.getByRole('treeitem', { name: 'team' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    await page.keyboard.press('ArrowRight');
    expect(await focused()).toBe('alpha');
    await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'Alpha one' }).waitFor();
    // team, alpha, Alpha one and Beta are treeitems too, with their "New page here" items.
    expect(await labels()).toEqual([
      'Handbook',
      'notes',
      'ops',
      'runbooks',
      'team',
      'alpha',
      'Alpha one',
      'New page here',
      'Beta',
      'New page here',
    ]);
    expect(
      await tree.getByRole('treeitem', { name: 'alpha', exact: true }).getAttribute('aria-level'),
    ).toBe('2');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Alpha one');
    await page.keyboard.press('ArrowLeft');
    expect(await focused()).toBe('alpha');
    await page.keyboard.press('ArrowLeft');
    expect(
      await tree
        .getByRole('treeitem', { name: 'alpha', exact: true })
        .getAttribute('aria-expanded'),
    ).toBe('false');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Beta');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/wiki/team/beta');
    await page.getByRole('heading', { name: 'Beta', level: 1, exact: true }).waitFor();
    expect(await tree.getByRole('treeitem', { name: 'Beta' }).getAttribute('aria-current')).toBe(
      'page',
    );
    // Enter on a folder without a page opens or closes it.
    await tree.getByRole('treeitem', { name: 'notes' }).focus();
    await page.keyboard.press('Enter');
    await tree.getByRole('treeitem', { name: 'Toolbar' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('follows the system theme, and the "Dark mode" switch overrides it', async () => {
    const context = await h.browser.newContext({
      baseURL: h.app.url,
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
    });
    try {
      const p = await context.newPage();
      await signIn(p, h.app.editor, '/wiki/handbook');
      const theme = () => p.evaluate(() => document.documentElement.dataset.theme);
      const background = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(await theme()).toBe('dark');
      expect(await background()).toBe('rgb(15, 17, 21)');
      await p.getByRole('button', { name: /^Account/ }).click();
      const toggle = p.getByRole('switch', { name: 'Dark mode' });
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await toggle.click();
      expect(await toggle.getAttribute('aria-checked')).toBe('false');
      expect(await theme()).toBe('light');
      expect(await background()).toBe('rgb(255, 255, 255)');
      // The choice survives a reload; switching back to the system's follows the system again.
      await p.reload();
      await p.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
      expect(await theme()).toBe('light');
      await p.getByRole('button', { name: /^Account/ }).click();
      await p.getByRole('switch', { name: 'Dark mode' }).click();
      expect(await p.evaluate(() => localStorage.getItem('kb-theme'))).toBeNull();
      const themeIs = (name: string) =>
        p.waitForFunction((n) => document.documentElement.dataset.theme === n, name);
      await p.emulateMedia({ colorScheme: 'light' });
      await themeIs('light');
      await p.emulateMedia({ colorScheme: 'dark' });
      await themeIs('dark');
      await p.keyboard.press('Escape');
      expect(await seriousA11yViolations(p)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('draws 50 pages with no two labels overlapping; zoom buttons zoom; on a phone the list comes first', async () => {
    for (let i = 0; i < 50; i++)
      await createPage(h.app.as.admin, `graph/s${i % 6}/page-${i}`, {
        title: `A fairly long page title number ${i}`,
        content: i > 0 ? `[prev](/graph/s${(i - 1) % 6}/page-${i - 1})` : 'first',
      });
    const context = await newContext(h.browser, h.app);
    try {
      const p = await context.newPage();
      await signIn(p, h.app.admin, '/admin/graph');
      await p.getByRole('textbox', { name: 'Subtree' }).fill('graph');
      await p.getByText('50 pages').waitFor();
      await p.waitForFunction(() => !!(window as { __kbGraph?: unknown }).__kbGraph);
      const boxes = await p.evaluate(() => {
        const cy = (window as unknown as { __kbGraph: import('cytoscape').Core }).__kbGraph;
        return cy.nodes().map((n) => {
          const b = n.boundingBox({ includeLabels: true, includeNodes: false });
          return { id: n.id(), x1: b.x1, x2: b.x2, y1: b.y1, y2: b.y2 };
        });
      });
      expect(boxes).toHaveLength(50);
      const overlaps = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i];
          const b = boxes[j];
          if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps.push([a.id, b.id]);
        }
      expect(overlaps).toEqual([]);
      // Labels are drawn at the fitted zoom (cytoscape hides text below 8 px).
      const zoom = () =>
        p.evaluate(() => (window as unknown as { __kbGraph: { zoom(): number } }).__kbGraph.zoom());
      expect((await zoom()) * 11).toBeGreaterThanOrEqual(8);
      const before = await zoom();
      await p.getByRole('button', { name: 'Zoom in' }).click();
      expect(await zoom()).toBeCloseTo(before * 1.4, 5);
      await p.getByRole('button', { name: 'Zoom out' }).click();
      await p.getByRole('button', { name: 'Zoom out' }).click();
      expect(await zoom()).toBeCloseTo(before / 1.4, 5);
      await p.getByRole('button', { name: 'Fit' }).click();
      expect(await zoom()).toBeCloseTo(before, 5);

      await p.setViewportSize({ width: 390, height: 844 });
      const order = await p.evaluate(() => {
        const list = document.querySelector('.graph__list')!.getBoundingClientRect().top;
        const canvas = document.querySelector('.graph__canvas')!.getBoundingClientRect().top;
        return list < canvas;
      });
      expect(order).toBe(true);
    } finally {
      await context.close();
    }
  });
});
