import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createPage } from '../support/pages';
import { createUser, login, type TestUser } from '../support/users';
import {
  newContext,
  seriousA11yViolations,
  signIn,
  useConsoleApp,
  type ConsoleApp,
} from './console-app';

/** SCREENSHOTS_DIR=/tmp/x writes this spec's screens there (desktop and phone, light and dark). */
const shots = process.env.SCREENSHOTS_DIR ?? null;

/** A small page limit, so a page over it is quick to make. */
const PAGE_MAX_BYTES = 64 * 1024;

/**
 * Issue 26, items 2-5: drafts of pages in any script, "My drafts", draft size problems in
 * words; browser addresses outside the API ("Not found", page addresses without /wiki); screens
 * that follow permissions; the Account screen and the users screen's Unlock.
 */
describe('console: drafts, addresses, permissions and accounts', () => {
  const h = useConsoleApp({
    env: () => ({ PAGE_MAX_BYTES: String(PAGE_MAX_BYTES), LOGIN_MAX_FAILURES: '3' }),
  });
  let app: ConsoleApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    ({ app, browser } = h);
    await createPage(app.as.editor, 'team/über-uns', {
      title: 'Über uns',
      content: 'Wer wir sind.',
    });
    await createPage(app.as.editor, 'handbook/index', { title: 'Handbook index', content: 'All.' });
    if (shots) mkdirSync(shots, { recursive: true });
  });
  afterAll(() => Promise.all(contexts.map((c) => c.close())));

  async function open(user: TestUser, path = '/', viewport?: { width: number; height: number }) {
    const context = await newContext(browser, app, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await signIn(page, user, path);
    return page;
  }

  const content = (p: Page) => p.getByRole('textbox', { name: 'Content' });

  async function typeAtEnd(p: Page, text: string): Promise<void> {
    await content(p).click();
    await p.keyboard.press('Control+End');
    await p.keyboard.type(text);
  }

  async function expectNoSeriousViolations(p: Page, screen: string): Promise<void> {
    expect({ screen, violations: await seriousA11yViolations(p) }).toEqual({
      screen,
      violations: [],
    });
  }

  it('keeps a draft of a page whose slug is not ASCII across a reload', async () => {
    const page = await open(app.editor, '/edit/team/%C3%BCber-uns');
    await content(page).waitFor();
    await typeAtEnd(page, '\nNoch nicht gespeichert.');
    await page.getByText('Draft saved').waitFor({ timeout: 15_000 });
    const key = encodeURI('page:team/über-uns');
    const stored = (await app.as.editor.get(`/api/drafts/${key}`).expect(200)).body;
    expect(stored).toMatchObject({ content: 'Wer wir sind.\nNoch nicht gespeichert.' });
    // The text is kept once, not a second time inside the form's fields.
    expect(stored.fields).not.toHaveProperty('content');

    // The page is a live session (docs/collab.md): the text was stored as it was typed.
    await page.reload();
    await content(page).getByText('Noch nicht gespeichert.').waitFor();
  });

  it('lists drafts on "My drafts" (from the avatar menu) with Resume and Discard', async () => {
    await app.as.editor
      .put(`/api/drafts/${encodeURI('page:handbook/index')}`)
      .send({ title: 'Handbook index', content: 'All, and more.', baseRevision: 1 })
      .expect(201);
    const page = await open(app.editor);
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('link', { name: 'My drafts' }).click();
    await page.getByRole('heading', { name: 'My drafts' }).waitFor();
    const table = page.getByRole('table', { name: 'My drafts' });
    await table.getByRole('row', { name: /Über uns/ }).waitFor();
    await expectNoSeriousViolations(page, 'my-drafts');
    if (shots) await page.screenshot({ path: join(shots, 'my-drafts-desktop.png') });

    await table
      .getByRole('row', { name: /Handbook index/ })
      .getByRole('button', { name: /Discard/ })
      .click();
    await table.getByRole('row', { name: /Handbook index/ }).waitFor({ state: 'detached' });
    await app.as.editor.get(`/api/drafts/${encodeURI('page:handbook/index')}`).expect(404);

    await table
      .getByRole('row', { name: /Über uns/ })
      .getByRole('link', { name: /Resume/ })
      .click();
    await page.waitForURL(/\/edit\/team\/%C3%BCber-uns\?draft=resume$/);
    await expect(content(page).textContent()).resolves.toContain('Noch nicht gespeichert.');
    await expect(page.getByRole('button', { name: 'Resume draft' }).count()).resolves.toBe(0);
  });

  it('says in words when a draft is too large and does not send the same text again', async () => {
    await createPage(app.as.editor, 'big/page', {
      title: 'Big page',
      content: 'x'.repeat(PAGE_MAX_BYTES - 10),
    });
    const page = await open(app.editor, '/edit/big/page');
    await content(page).waitFor();
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/api/drafts/')) puts.push(r.url());
    });
    // One input event: the text goes over the limit at once.
    await content(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('y'.repeat(20));
    await page
      .getByText(
        'This page holds more than 64 KiB; a page may hold at most 64 KiB. Shorten the text to keep a draft; saving the page would be refused too.',
      )
      .waitFor({ timeout: 15_000 });
    await page.getByRole('status').getByText('Draft not saved: too large').waitFor();
    // Three autosave rounds later the same text has not been sent again.
    await page.waitForTimeout(7_000);
    expect(puts).toHaveLength(1);
    if (shots) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(shots, 'draft-too-large-desktop.png') });
    }
    // Shortened below the limit, it is saved again.
    await content(page).click();
    await page.keyboard.press('Control+End');
    for (let i = 0; i < 30; i++) await page.keyboard.press('Backspace');
    await page.getByText('Draft saved').waitFor({ timeout: 15_000 });
    expect(puts.length).toBeGreaterThanOrEqual(2);
  });

  it('gives a reader at /edit/… and /new an editor that proposes instead of saving', async () => {
    const page = await open(app.reader, '/edit/handbook/index');
    await page.getByText('You cannot save this page directly').waitFor();
    await content(page).waitFor();
    await expect(page.getByRole('button', { name: 'Save', exact: true }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Propose changes' }).waitFor();
    await expectNoSeriousViolations(page, 'read-only-edit');
    if (shots) await page.screenshot({ path: join(shots, 'read-only-edit-desktop.png') });
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL('**/wiki/handbook/index');
    await page.getByRole('heading', { name: 'Handbook index' }).waitFor();

    await page.goto('/new');
    await page.getByText('You cannot create pages directly').waitFor();
    await page.getByLabel('Slug').waitFor();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${app.url}/`);
    // No draft was ever asked for (a reader's would be 403).
    expect((await app.as.reader.get('/api/drafts').expect(403)).body.code).toBe(
      'insufficient_role',
    );
  });

  it('opens a page address typed without /wiki, and says "Not found" (with Create for editors) otherwise', async () => {
    const page = await open(app.editor, '/handbook/index');
    await page.waitForURL('**/wiki/handbook/index');
    await page.getByRole('heading', { name: 'Handbook index' }).waitFor();
    await page.goto('/team/%C3%9Cber-uns');
    await page.waitForURL('**/wiki/team/%C3%BCber-uns');
    await page.getByRole('heading', { name: 'Über uns' }).waitFor();
    await page.goto('/wiki');
    await page.waitForURL(`${app.url}/`);

    await page.goto('/guides/release-train');
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await expect(page.locator('body').textContent()).resolves.not.toContain('"status"');
    await expectNoSeriousViolations(page, 'not-found');
    if (shots) await page.screenshot({ path: join(shots, 'not-found-desktop.png') });
    const search = page.getByRole('search', { name: 'Search for a page' }).getByRole('searchbox');
    await expect(search.inputValue()).resolves.toBe('release train');
    await page.getByRole('link', { name: 'Create this page' }).click();
    await page.waitForURL(/\/new\?slug=guides%2Frelease-train$/);
    await expect(page.getByLabel('Slug').inputValue()).resolves.toBe('guides/release-train');

    const reader = await open(app.reader, '/guides/release-train');
    await reader.getByRole('heading', { name: 'Not found' }).waitFor();
    await expect(reader.getByRole('link', { name: 'Create this page' }).count()).resolves.toBe(0);
    const form = reader.getByRole('search', { name: 'Search for a page' });
    await form.getByRole('searchbox', { name: 'Search pages' }).fill('Handbook');
    await form.getByRole('button', { name: 'Search' }).click();
    await reader.waitForURL('**/search?q=Handbook');
  });

  it('changes name, email and password on the Account screen and signs sessions out', async () => {
    const nora = await createUser(app.t, 'editor', { username: 'nora' });
    const elsewhere = await login(app.t, nora);
    const another = await login(app.t, nora);
    const page = await open(nora);
    await page.getByRole('button', { name: /^Account/ }).click();
    await page.getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();

    await page.getByLabel('Display name').fill('Nora Jones');
    await page.getByLabel('Email').fill('nora@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.').waitFor();
    expect((await elsewhere.get('/api/me/account').expect(200)).body).toMatchObject({
      displayName: 'Nora Jones',
      email: 'nora@example.com',
    });

    const sessions = page.getByRole('region', { name: 'Sessions' });
    await sessions.getByRole('row', { name: /This session/ }).waitFor();
    await expect(
      sessions.getByRole('button', { name: 'Sign out', exact: true }).count(),
    ).resolves.toBe(2);
    await expectNoSeriousViolations(page, 'account');
    await sessions.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.waitForFunction(
      () => document.querySelectorAll('[aria-labelledby="sessions-title"] tbody tr').length === 2,
    );
    const statuses = [
      (await elsewhere.get('/api/me')).status,
      (await another.get('/api/me')).status,
    ].sort();
    expect(statuses).toEqual([200, 401]);

    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill('a much better password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is wrong.').waitFor();
    await page.getByLabel('Current password').fill(nora.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByText(
        'Your password is changed. 1 other session was signed out; sign in there with the new password.',
      )
      .waitFor();
    await elsewhere.get('/api/me').expect(401);
    await another.get('/api/me').expect(401);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled(),
    ).resolves.toBe(true);
    await login(app.t, { ...nora, password: 'a much better password' });
    if (shots) await page.screenshot({ path: join(shots, 'account-desktop.png'), fullPage: true });
  });

  it('unlocks a throttled account and filters users on the users screen', async () => {
    const locked = await createUser(app.t, 'reader', { username: 'locked-out' });
    for (let i = 0; i < 3; i++) {
      await app.t
        .http()
        .post('/auth/login')
        .send({ username: locked.username, password: 'wrong password' })
        .expect(401);
    }
    await app.t
      .http()
      .post('/auth/login')
      .send({ username: locked.username, password: locked.password })
      .expect(429);
    const page = await open(app.admin, '/admin/users');
    const table = page.getByRole('table', { name: 'Users' });
    const row = table.getByRole('row', { name: /locked-out/ });
    await row.getByText('Locked (too many failed sign-ins)').waitFor();
    await page.getByLabel('Filter users').fill('locked');
    await page.waitForFunction(() => document.querySelectorAll('table tbody tr').length === 1);
    await expectNoSeriousViolations(page, 'users');
    if (shots) await page.screenshot({ path: join(shots, 'users-desktop.png') });
    await row.getByRole('button', { name: 'Unlock' }).click();
    await row.getByText('Active').waitFor();
    await expect(row.getByRole('button', { name: 'Unlock' }).count()).resolves.toBe(0);
    await login(app.t, locked);
    await page.getByLabel('Filter users').fill('nobody-like-this');
    await page.getByText('No user matches “nobody-like-this”.').waitFor();
  });

  (shots ? it : it.skip)(
    'writes screenshots on a phone and in dark mode',
    async () => {
      for (const [device, viewport] of [
        ['desktop', { width: 1280, height: 800 }],
        ['phone', { width: 390, height: 844 }],
      ] as const) {
        for (const scheme of ['light', 'dark'] as const) {
          const context = await browser.newContext({
            baseURL: app.url,
            viewport,
            colorScheme: scheme,
          });
          contexts.push(context);
          const page = await context.newPage();
          await signIn(page, app.admin);
          for (const [name, path, ready] of [
            ['account', '/account', 'Sessions'],
            ['my-drafts', '/drafts', 'My drafts'],
            ['not-found', '/no/such-page', 'Not found'],
            ['users', '/admin/users', 'Users'],
          ] as const) {
            await page.goto(path);
            await page.getByRole('heading', { name: ready, exact: true }).first().waitFor();
            await expectNoSeriousViolations(page, `${name}-${device}-${scheme}`);
            await page.screenshot({
              path: join(shots!, `${name}-${device}-${scheme}.png`),
              fullPage: true,
            });
          }
          const reader = await context.browser()!.newContext({
            baseURL: app.url,
            viewport,
            colorScheme: scheme,
          });
          contexts.push(reader);
          const readerPage = await reader.newPage();
          await signIn(readerPage, app.reader, '/edit/handbook/index');
          await readerPage.getByText('You cannot save this page directly').waitFor();
          await readerPage.screenshot({
            path: join(shots!, `read-only-edit-${device}-${scheme}.png`),
          });
        }
      }
    },
    180_000,
  );
});
