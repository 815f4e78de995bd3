import type { Page } from 'playwright-core';
import { eventually } from '../support/eventually';
import { createPage, updatePage } from '../support/pages';
import {
  newContext,
  seriousA11yViolations,
  signIn,
  useConsoleApp,
  type ConsoleApp,
} from './console-app';

const SLUG = 'guides/tea';
const PASSAGE = 'Steep green tea for two minutes';
const CONTENT = [
  '# Tea',
  '',
  'Always warm the pot before the leaves go in.',
  '',
  `${PASSAGE}, black tea for four.`,
  '',
].join('\n');

/** Issue 31, items 1-6: comments in the console, as a reader makes and follows them. */
describe('console: comments', () => {
  const h = useConsoleApp({ signIn: 'reader' });
  let app: ConsoleApp;
  let page: Page;

  beforeAll(async () => {
    ({ app, page } = h);
    await createPage(app.as.admin, SLUG, { title: 'Tea', content: CONTENT });
  });

  const panel = (p: Page = page) => p.getByRole('region', { name: 'Comments' });
  const prose = (p: Page = page) => p.locator('.page__content .prose');
  const mark = (p: Page = page) => prose(p).locator('mark.comment-anchor');
  const threads = async () =>
    (await app.as.reader.get(`/api/comments?slug=${SLUG}&state=all`).expect(200)).body.items;

  /** Selects `text` in the page with the mouse, as a person would. */
  async function select(text: string): Promise<void> {
    const box = await prose().evaluate((root, quote) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(quote);
        if (at < 0) continue;
        const first = document.createRange();
        first.setStart(node, at);
        first.setEnd(node, at + 1);
        const last = document.createRange();
        last.setStart(node, at + quote.length - 1);
        last.setEnd(node, at + quote.length);
        const a = first.getBoundingClientRect();
        const b = last.getBoundingClientRect();
        return {
          x1: a.left + 1,
          y1: a.top + a.height / 2,
          x2: b.right - 1,
          y2: b.top + b.height / 2,
        };
      }
      throw new Error(`"${quote}" is not in the page`);
    }, text);
    await page.mouse.move(box.x1, box.y1);
    await page.mouse.down();
    await page.mouse.move(box.x2, box.y2, { steps: 8 });
    await page.mouse.up();
  }

  it('makes an inline comment from selected text, marked in the page', async () => {
    await page.goto(`/wiki/${SLUG}`);
    await panel().getByText('No open comments').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);

    await select(PASSAGE);
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    await panel().getByLabel('Comment on the selected text').fill('Is two minutes **enough**?');
    await panel().getByRole('button', { name: 'Post', exact: true }).click();

    const thread = panel().getByRole('article');
    await thread.getByText('enough').waitFor();
    expect(await thread.locator('strong', { hasText: 'enough' }).count()).toBe(1);
    expect(await mark().textContent()).toBe(PASSAGE);
    const [made] = await threads();
    expect(made).toMatchObject({ body: 'Is two minutes **enough**?', anchor: { quote: PASSAGE } });
    expect(await page.getByRole('link', { name: '1 open comments' }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('keeps the thread on its passage when an edit moves it', async () => {
    const intro = 'Good water matters more than anything else in this guide.';
    await updatePage(app.as.admin, SLUG, {
      content: CONTENT.replace('# Tea\n', `# Tea\n\n${intro}\n`),
    });
    await page.reload();
    await prose().getByText(intro).waitFor();
    await eventually(async () => expect(await mark().textContent()).toBe(PASSAGE));
    const [thread] = await threads();
    expect(thread.outdated).toBe(false);
    expect(thread.anchor.start).toBeGreaterThan(intro.length);
    // The mark leads to its thread.
    await mark().click();
    await panel().locator('.comment-thread--active').waitFor();
    expect(await panel().getByText('Outdated').count()).toBe(0);
  });

  it('mentions someone with autocomplete, and the mention reaches their inbox', async () => {
    const thread = panel().getByRole('article');
    await thread.getByRole('button', { name: 'Reply', exact: true }).click();
    const box = thread.getByRole('combobox', { name: 'Reply' });
    await box.pressSequentially('Asking @edi');
    await page.getByRole('option', { name: /@edith/ }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Asking @edith ');
    await box.pressSequentially('to check.');
    await thread.getByRole('button', { name: 'Send', exact: true }).click();
    await thread.getByText('Asking @edith to check.').waitFor();

    // In the editor's inbox, in their own console.
    await eventually(async () => {
      const inbox = (await app.as.editor.get('/api/notifications').expect(200)).body.items;
      expect(inbox.map((n: { kind: string }) => n.kind)).toContain('comment.mentioned');
    });
    const context = await newContext(h.browser, app);
    try {
      const theirs = await context.newPage();
      await signIn(theirs, app.editor, '/notifications');
      await theirs.getByText('mentioned you in a comment on').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('resolves and reopens a thread', async () => {
    await panel().getByRole('button', { name: 'Resolve', exact: true }).click();
    await panel().getByText('No open comments').waitFor();
    expect(await mark().count()).toBe(0);
    await panel()
      .getByRole('tab', { name: /Resolved/ })
      .click();
    await panel().getByRole('button', { name: 'Reopen', exact: true }).click();
    await panel().getByRole('tab', { name: /Open/ }).click();
    await panel().getByRole('button', { name: 'Resolve', exact: true }).waitFor();
    expect(await mark().textContent()).toBe(PASSAGE);
  });

  it('shows a thread whose passage was deleted as outdated, with its quote', async () => {
    await updatePage(app.as.admin, SLUG, {
      content: '# Tea\n\nNothing about steeping any more.\n',
    });
    await page.reload();
    await panel().getByText('Outdated').waitFor();
    await panel().getByText(`“${PASSAGE}”`).waitFor();
    expect(await mark().count()).toBe(0);
    const [thread] = await threads();
    expect(thread).toMatchObject({ outdated: true, anchor: { quote: PASSAGE } });
  });

  it('adds a comment on the whole page, and looks right on a desktop and a phone', async () => {
    await updatePage(app.as.admin, SLUG, { content: CONTENT });
    await page.reload();
    await panel().getByRole('button', { name: 'Add comment' }).click();
    await panel().getByLabel('Comment', { exact: true }).fill('A general note about this page.');
    await panel().getByRole('button', { name: 'Post', exact: true }).click();
    await panel().getByText('A general note about this page.').waitFor();
    await eventually(async () => expect(await mark().count()).toBe(1));

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `/tmp/comments-desktop-${scheme}.png`, fullPage: true });
    }
    const phone = await h.browser.newContext({
      baseURL: app.url,
      viewport: { width: 390, height: 844 },
    });
    try {
      const small = await phone.newPage();
      await signIn(small, app.reader, `/wiki/${SLUG}`);
      await panel(small).getByText('A general note about this page.').waitFor();
      // Below the page on a phone.
      const [content, comments] = await Promise.all([
        prose(small).boundingBox(),
        panel(small).boundingBox(),
      ]);
      expect(comments!.y).toBeGreaterThan(content!.y + content!.height);
      for (const scheme of ['light', 'dark'] as const) {
        await small.emulateMedia({ colorScheme: scheme });
        await small.screenshot({ path: `/tmp/comments-phone-${scheme}.png`, fullPage: true });
      }
      expect(await seriousA11yViolations(small)).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
