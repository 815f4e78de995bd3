import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { newContext, signIn, useConsoleApp, type ConsoleApp } from './console-app';
import { createPage } from '../support/pages';
import { createUser } from '../support/users';

const ASSETS = join(__dirname, '..', '..', 'dist', 'console', 'public', 'assets');

/** Flow 1, the console's delivery (caching, size) and its safety (CSP, XSS canary). */
describe('console: sign-in, sessions, delivery and safety', () => {
  const h = useConsoleApp({ env: () => ({ LOGIN_MAX_FAILURES: '3' }), seed: true });
  let app: ConsoleApp;
  let browser: Browser;
  beforeAll(() => ({ app, browser } = h));

  async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
    const context = await newContext(browser, app);
    try {
      await run(await context.newPage());
    } finally {
      await context.close();
    }
  }

  it('signs in with the keyboard alone and out again', () =>
    withPage(async (page) => {
      await page.goto('/wiki/handbook');
      await page.waitForURL('**/login?next=%2Fwiki%2Fhandbook');
      // The username field has the focus; Tab and Enter do the rest.
      await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'username');
      await page.keyboard.type(app.reader.username);
      await page.keyboard.press('Tab');
      await page.keyboard.type(app.reader.password);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/wiki/handbook');
      await page.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();

      await page.getByRole('button', { name: /^Account/ }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL('**/login');
      await page.goto('/wiki/handbook/tools');
      await page.waitForURL('**/login?next=%2Fwiki%2Fhandbook%2Ftools');
    }));

  it('says plainly when a sign-in failed and when it is throttled', () =>
    withPage(async (page) => {
      const victim = await createUser(app.t, 'reader', { username: 'victim' });
      await page.goto('/login');
      for (let i = 0; i < 3; i++) {
        await page.getByLabel('Username').fill(victim.username);
        await page.getByLabel('Password').fill('wrong password');
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('alert').getByText('The username or password is wrong').waitFor();
      }
      await page.getByLabel('Password').fill(victim.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page
        .getByRole('alert')
        .getByText(/Too many failed sign-ins\. Try again in \d+ minutes\./)
        .waitFor();
      expect(page.url()).toMatch(/\/login$/);
    }));

  it('sends a person whose session ended to sign-in, then back to where they were', () =>
    withPage(async (page) => {
      const person = await createUser(app.t, 'editor', { username: 'sam' });
      await signIn(page, person, '/wiki/handbook');
      await page.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
      await app.t.dataSource.query('DELETE FROM sessions WHERE user_id = ?', [person.id]);
      await page.getByRole('article').getByRole('link', { name: 'Tools' }).click();
      await page.waitForURL('**/login?next=%2Fwiki%2Fhandbook%2Ftools&expired=1');
      await page.getByText('Your session has ended.').waitFor();
      await page.getByLabel('Username').fill(person.username);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL('**/wiki/handbook/tools');
      await page.getByRole('heading', { name: 'Tools', level: 1 }).waitFor();
    }));

  /**
   * Issue 28 item 6: an unsafe `next=` (off-site, read off-site by the browser, a script URL,
   * or an encoded spelling of one) lands on the home page, for a person signing in and for one
   * signed in already (who was stuck on the sign-in screen by a navigation that threw).
   */
  const UNSAFE_NEXT = [
    '/\\evil.example',
    '//evil.example',
    'https://evil.example',
    'javascript:alert(document.domain)',
    '%2F%5Cevil.example',
    '/%5Cevil.example',
    '%2F%2Fevil.example',
    '/%2F%2Fevil.example',
  ];

  it('issue 28 item 6: lands on the home page after sign-in when next= is unsafe, and goes where a safe one says', () =>
    withPage(async (page) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const home = `${app.url}/`;
      const atHome = async () => {
        await page.waitForURL(home);
        await page.getByRole('searchbox', { name: 'Search' }).waitFor();
      };
      // Signing in through the form.
      await page.goto(`/login?next=${encodeURIComponent(UNSAFE_NEXT[0])}`);
      await page.getByLabel('Username').fill(app.reader.username);
      await page.getByLabel('Password').fill(app.reader.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await atHome();
      // Signed in already: each unsafe value, encoded in the address and written raw.
      for (const next of UNSAFE_NEXT) {
        for (const address of [`/login?next=${encodeURIComponent(next)}`, `/login?next=${next}`]) {
          await page.goto(address);
          await atHome();
          expect({ address, url: page.url() }).toEqual({ address, url: home });
        }
      }
      // A path of this site is where the person goes.
      await page.goto(`/login?next=${encodeURIComponent('/wiki/handbook')}`);
      await page.waitForURL('**/wiki/handbook');
      await page.getByRole('heading', { name: 'Handbook', level: 1 }).waitFor();
      expect(errors).toEqual([]);
    }));

  it('issue 28 item 6: signing in with a percent-encoded backslash in next= lands on the home page', () =>
    withPage(async (page) => {
      await page.goto(`/login?next=${encodeURIComponent('/%5Cevil.example')}`);
      await page.getByLabel('Username').fill(app.reader.username);
      await page.getByLabel('Password').fill(app.reader.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${app.url}/`);
      await page.getByRole('searchbox', { name: 'Search' }).waitFor();
    }));

  it('serves hashed assets immutable, index.html revalidated, and every console URL on reload', async () => {
    const index = await app.t.http().get('/wiki/handbook/onboarding').expect(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    const assets = [...index.text.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await app.t.http().get(asset).set('Accept-Encoding', 'br').expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('br');
    }
    // A problem document, not the console, for an unknown API path.
    const api = await app.t.http().get('/api/nothing-here').expect(404);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
  });

  it('loads at most 250,000 bytes of gzipped JavaScript to sign in and open a page, no editor code', () =>
    withPage(async (page) => {
      const scripts = new Set<string>();
      page.on('response', (r) => {
        const path = new URL(r.url()).pathname;
        if (path.endsWith('.js')) scripts.add(path.replace('/assets/', ''));
      });
      await signIn(page, app.reader, '/wiki/handbook/onboarding');
      await page.getByRole('heading', { name: 'Your first day' }).waitFor();
      const gzipped = [...scripts].reduce((sum, name) => {
        const file = join(ASSETS, `${name}.gz`);
        expect(existsSync(file)).toBe(true);
        return sum + statSync(file).size;
      }, 0);
      expect(gzipped).toBeLessThanOrEqual(250_000);
      expect([...scripts].filter((s) => /editor|history|print|tokens/.test(s))).toEqual([]);
    }));

  it('runs nothing from a page full of XSS payloads, and its CSP refuses inline script', () =>
    withPage(async (page) => {
      const payloads = [
        '<script>window.__pwned = "script"</script>',
        '<img src="x" onerror="window.__pwned = \'img\'">',
        '<svg onload="window.__pwned = \'svg\'"></svg>',
        '<iframe srcdoc="<script>parent.__pwned = \'iframe\'</script>"></iframe>',
        '<a href="javascript:window.__pwned = \'link\'">click me</a>',
        "[md link](javascript:window.__pwned='md')",
        '<details open ontoggle="window.__pwned = \'details\'"><summary>x</summary></details>',
        '<form action="javascript:window.__pwned=\'form\'"><button>go</button></form>',
        '{{payload}}',
      ].join('\n\n');
      await createPage(app.as.admin, 'xss', {
        title: '<img src=x onerror="window.__pwned=\'title\'">',
        icon: '<b onmouseover=alert(1)>',
        tags: ['<script>'],
        content: payloads,
        variables: { payload: '<script>window.__pwned = "variable"</script>' },
      });
      const violations: string[] = [];
      await page.exposeFunction('__reportViolation', (v: string) => violations.push(v));
      await page.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as unknown as { __reportViolation: (v: string) => void }).__reportViolation(
            e.violatedDirective,
          ),
        ),
      );
      await signIn(page, app.reader, '/wiki/xss');
      await page.getByRole('heading', { level: 1 }).getByText('<img src=x').waitFor();
      await page
        .getByText('click me')
        .click({ trial: false })
        .catch(() => undefined);
      await page
        .getByText('md link')
        .click()
        .catch(() => undefined);
      await page.goto('/search?q=payload');
      await page.goto('/wiki/xss');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(
        await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      ).toBeUndefined();

      // Were the sanitiser ever bypassed, the CSP would still refuse inline script.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__pwned = "inline"';
        document.body.append(script);
      });
      await page.waitForTimeout(100);
      expect(
        await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned),
      ).toBeUndefined();
      expect(violations).toContain('script-src-elem');
    }));
});
