import type { Page } from 'playwright-core';
import { newContext, signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEntry } from '../support/kb-process';
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
    const dir = process.env.SCREENSHOT_DIR ?? '/tmp';
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await p.evaluate((s) => document.documentElement.setAttribute('data-theme', s), scheme);
      await p.setViewportSize({ width: 1280, height: 900 });
      await p.screenshot({ path: `${dir}/review-${name}-desktop-${scheme}.png`, fullPage: true });
      await p.setViewportSize({ width: 390, height: 844 });
      await p.screenshot({ path: `${dir}/review-${name}-phone-${scheme}.png`, fullPage: true });
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

  it('proposes a move the protected path refuses, and the merge moves the page', async () => {
    await app.as.admin
      .put('/api/protected-paths')
      .send([{ prefix: 'rules', approvals: 1 }])
      .expect(200);
    await createPage(app.as.admin, 'rules/travel', { title: 'Travel', content: TEXT });
    await page.goto('/wiki/rules/travel');
    const actions = page.getByRole('toolbar', { name: 'Page actions' });
    await actions.getByRole('button', { name: 'Move', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Move page' });
    await dialog.getByLabel('New slug').fill('rules/travel-and-expenses');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await dialog.getByText('change through a change request').waitFor();
    await app.as.admin.get('/api/pages/rules/travel').expect(200);

    await dialog.getByRole('button', { name: 'Propose changes' }).click();
    await page.waitForURL(/\/change-requests\/\d+$/);
    const id = Number(page.url().split('/').pop());
    await page
      .getByRole('heading', { name: `#${id} Move “Travel” to rules/travel-and-expenses` })
      .waitFor();
    const request = (await app.as.admin.get(`/api/change-requests/${id}`).expect(200)).body;
    expect(request.changes).toEqual([
      expect.objectContaining({
        slug: 'rules/travel',
        action: 'move',
        to: 'rules/travel-and-expenses',
      }),
    ]);
    await app.as.admin.post(`/api/change-requests/${id}/approve`).send({}).expect(200);
    await app.as.admin.post(`/api/change-requests/${id}/merge`).send({}).expect(200);
    await app.as.admin.get('/api/pages/rules/travel-and-expenses').expect(200);
  });

  it('blocks the merge of an overlapping concurrent edit and shows the conflict', async () => {
    await createPage(app.as.admin, 'guides/run', { title: 'Run', content: TEXT });
    await page.goto('/edit/guides/run');
    await replaceText(page, TEXT.replace('Run it.', 'Run it twice.'));
    await page.getByRole('button', { name: 'Propose changes' }).click();
    await page.waitForURL(/\/change-requests\/\d+$/);
    // The live session that editor left writes nothing: the proposal went only to the request.
    await page.getByRole('heading', { name: 'Changes', exact: true }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await stored('guides/run')).toMatchObject({ revision: 1, content: TEXT });
    await updatePage(app.as.admin, 'guides/run', {
      content: TEXT.replace('Run it.', 'Run it once.'),
    });
    await page.reload();
    await page.getByText('Merging is blocked').waitFor();
    await page.getByText('overlapping edits').waitFor();
    expect(await page.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
    expect((await stored('guides/run')).content).toContain('Run it once.');
    await screenshots(page, 'change-request-conflict');

    // The author resolves it in the console: the editor holds the proposal merged with the page
    // as it is now, the overlap between markers; proposing updates the request.
    await page
      .getByRole('link', { name: 'Resolve the conflicts of guides/run in the editor' })
      .click();
    await page.getByText('marked in the text').waitFor();
    const merged = await page.getByRole('textbox', { name: 'Content' }).innerText();
    expect(merged).toContain('<<<<<<< mine');
    expect(merged).toContain('Run it twice.');
    expect(merged).toContain('Run it once.');
    await screenshots(page, 'change-request-resolve');
    await page.getByRole('button', { name: 'Propose changes' }).click();
    await page.getByText('still holds conflict markers').waitFor();
    const resolved = TEXT.replace('Run it.', 'Run it once, then twice.');
    await replaceText(page, resolved);
    await page.getByRole('button', { name: 'Propose changes' }).click();
    await page.waitForURL(/\/change-requests\/\d+$/);
    const id = Number(page.url().split('/').pop());
    const updated = (await app.as.admin.get(`/api/change-requests/${id}`).expect(200)).body;
    expect(updated).toMatchObject({ version: 2, conflicts: [], mergeable: true });
    expect(updated.changes[0]).toMatchObject({
      content: resolved,
      baseRevision: (await stored('guides/run')).revision,
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Changes', exact: true }).waitFor();
    expect(await page.getByText('Merging is blocked').count()).toBe(0);
    await page.getByRole('button', { name: 'Merge' }).click();
    await page.getByText('merged', { exact: true }).first().waitFor();
    expect((await stored('guides/run')).content).toBe(resolved);
  });

  it('a reader proposes from the page, asks a reviewer, and they talk on a line of the diff', async () => {
    await createPage(app.as.admin, 'guides/tea', { title: 'Tea', content: TEXT });
    const context = await newContext(h.browser, app);
    const reader = await context.newPage();
    await signIn(reader, app.reader, '/guides/tea');
    await reader.getByRole('link', { name: 'Propose changes' }).click();
    await reader.getByText('You cannot save this page directly').waitFor();
    // No Save for someone who may only propose, and no page details to change.
    expect(await reader.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await replaceText(reader, TEXT.replace('Install it.', 'Install it with npm.'));
    await reader.getByRole('textbox', { name: 'Summary' }).fill('Name the tool');
    await reader.getByRole('textbox', { name: 'Reviewers' }).fill(`@${app.editor.username}`);
    await screenshots(reader, 'propose-reader');
    await reader.getByRole('button', { name: 'Propose changes' }).click();
    await reader.waitForURL(/\/change-requests\/\d+$/);
    const id = Number(reader.url().split('/').pop());
    await reader.getByRole('heading', { name: `#${id} Name the tool` }).waitFor();
    const made = (await app.as.admin.get(`/api/change-requests/${id}`).expect(200)).body;
    expect(made).toMatchObject({
      author: app.reader.username,
      reviewers: [app.editor.username],
      changes: [
        expect.objectContaining({
          slug: 'guides/tea',
          action: 'update',
          content: TEXT.replace('Install it.', 'Install it with npm.'),
        }),
      ],
    });
    expect((await stored('guides/tea')).content).toBe(TEXT);
    const asked = (await app.as.editor.get('/api/notifications').expect(200)).body.items;
    expect(asked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'change_request',
          data: expect.objectContaining({ requestId: id, action: 'created' }),
        }),
      ]),
    );

    // The reviewer comments on the added line.
    await page.goto(`/change-requests/${id}`);
    const changes = page.getByRole('region', { name: 'Changes' });
    await changes.getByRole('button', { name: 'Comment on line 1', exact: true }).click();
    await changes.getByRole('textbox', { name: 'Comment' }).fill('Which **npm** version?');
    await changes.getByRole('button', { name: 'Add comment' }).click();
    const thread = changes.getByRole('article', { name: 'Comments on line 1' });
    await thread.getByText('Which npm version?').waitFor();
    const listed = (await app.as.admin.get(`/api/change-requests/${id}/comments`).expect(200)).body
      .items;
    expect(listed).toEqual([
      expect.objectContaining({
        slug: 'guides/tea',
        side: 'proposed',
        line: 1,
        lineText: 'Install it with npm.',
        body: 'Which **npm** version?',
      }),
    ]);

    // The reader (the request's author) was told, and answers in the thread.
    const told = (await app.as.reader.get('/api/notifications').expect(200)).body.items;
    expect(told).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ data: expect.objectContaining({ action: 'commented' }) }),
      ]),
    );
    await reader.reload();
    const theirs = reader
      .getByRole('region', { name: 'Changes' })
      .getByRole('article', { name: 'Comments on line 1' });
    await theirs.getByRole('button', { name: 'Reply' }).click();
    await theirs.getByRole('textbox', { name: 'Reply' }).fill('Any recent one.');
    await theirs.getByRole('button', { name: 'Send' }).click();
    await theirs.getByText('Any recent one.').waitFor();
    await page.reload();
    await thread.getByText('Any recent one.').waitFor();
    await screenshots(page, 'line-comments');

    // The reader rewrites that line: the thread stays, marked outdated with its line.
    await app.as.reader
      .put(`/api/change-requests/${id}`)
      .send({
        title: 'Name the tool',
        changes: [
          {
            slug: 'guides/tea',
            action: 'update',
            content: TEXT.replace('Install it.', 'Install it with npm 10.'),
          },
        ],
      })
      .expect(200);
    await page.reload();
    const outdated = changes.getByRole('article', { name: 'Comments on line 1' });
    await outdated.getByText('Outdated').waitFor();
    await outdated.getByText('Install it with npm.', { exact: true }).waitFor();
    await outdated.getByText('Any recent one.').waitFor();
    await screenshots(page, 'line-comments-outdated');
    await context.close();
  });

  it('opens a request made by kb push --propose, reviews its links and merges it', async () => {
    await createPage(app.as.admin, 'ci/setup', { title: 'Setup', content: 'Run it.' });
    const token = (await app.as.editor.post('/api/tokens').send({ name: 'ci' }).expect(201)).body
      .token as string;
    const work = mkdtempSync(join(tmpdir(), 'kb-propose-console-'));
    try {
      mkdirSync(join(work, 'docs'));
      writeFileSync(join(work, 'docs', 'setup.md'), '# Setup\n\nRun it twice.\n');
      writeFileSync(join(work, 'docs', 'new.md'), '# New\n\nSee [gone](/ci/nowhere).\n');
      const pushed = await runEntry('cli', { KB_URL: app.url, KB_TOKEN: token }, [
        'push',
        join(work, 'docs'),
        '--propose',
        'branch-1',
        '--prefix',
        'ci',
      ]);
      expect(pushed.status).toBe(0);
      const url = /(http\S+\/change-requests\/\d+)/.exec(pushed.stdout)?.[1];
      expect(url).toBeDefined();
      await page.goto(url!);
      const changes = page.getByRole('region', { name: 'Changes' });
      await changes
        .getByRole('article', { name: 'Edit ci/setup' })
        .getByText('Run it twice.')
        .waitFor();
      await changes.getByRole('article', { name: 'New page ci/new' }).waitFor();
      await page
        .getByRole('region', { name: 'Links' })
        .getByText(/^ci\/new:\d+: broken link \/ci\/nowhere$/)
        .waitFor();
      expect((await stored('ci/setup')).content).toBe('Run it.');
      const context = await newContext(h.browser, app);
      const second = await context.newPage();
      await signIn(second, app.admin, new URL(url!).pathname);
      await second.getByRole('button', { name: 'Merge' }).click();
      await second.getByText('merged', { exact: true }).first().waitFor();
      await context.close();
      expect((await stored('ci/setup')).content).toBe('Run it twice.');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
