import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { pkce } from '../support/oauth-flow';
import {
  launchBrowser,
  seriousA11yViolations,
  signIn,
  startConsoleApp,
  type ConsoleApp,
} from './console-app';

const REDIRECT = 'http://127.0.0.1:9/callback';
const shots = process.env.SCREENSHOT_DIR ?? null;

/**
 * kb as an OAuth authorization server, in Chromium: an app sends the person to kb, who signs
 * in, reads the consent screen (the app's name, the scopes) and allows it; the app gets a code
 * and a token that acts as the person; the Account screen lists the app and revokes it; the
 * administrators' Apps screen lists it and bans it.
 */
describe('console: allowing an app (OAuth)', () => {
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    [app, browser] = await Promise.all([startConsoleApp(), launchBrowser()]);
    if (shots) mkdirSync(shots, { recursive: true });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** A browser context whose waits fail with the locator's name after 20 s, not the test's. */
  async function openContext(options: Parameters<Browser['newContext']>[0]) {
    const context = await browser.newContext(options);
    context.setDefaultTimeout(20_000);
    return context;
  }

  async function registerApp(name = 'Notes Assistant'): Promise<string> {
    const res = await fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      }),
    });
    expect(res.status).toBe(201);
    return String(((await res.json()) as { client_id: string }).client_id);
  }

  function authorizeUrl(clientId: string, challenge: string, scope = 'read write'): string {
    return `${app.url}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope,
      state: 'st4te',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    })}`;
  }

  /** The app's redirect URI, answered in the browser so the test reads what it received. */
  async function catchRedirect(page: Page): Promise<{ url: Promise<URL> }> {
    let received!: (url: URL) => void;
    const back = new Promise<URL>((resolve) => (received = resolve));
    await page.route(`${REDIRECT}**`, async (route) => {
      received(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>App</title>ok' });
    });
    // Resolved once the browser is at the app (the navigation done), not when it set off.
    return {
      url: back.then(async (url) => {
        await page.waitForURL(`${REDIRECT}**`);
        return url;
      }),
    };
  }

  async function token(clientId: string, code: string, verifier: string): Promise<string> {
    const res = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: clientId,
        code_verifier: verifier,
      }).toString(),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  const me = (accessToken: string) =>
    fetch(`${app.url}/api/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it('signs in, shows the app and the scopes, and gives the app a token that acts as the person', async () => {
    const clientId = await registerApp();
    const { verifier, challenge } = pkce();
    const context = await openContext({ baseURL: app.url });
    const page = await context.newPage();
    try {
      const back = await catchRedirect(page);
      // Not signed in: kb's sign-in first, then the consent screen.
      await page.goto(authorizeUrl(clientId, challenge));
      await page.waitForURL('**/login?next=%2Fconsent%2F*');
      await page.getByLabel('Username').fill(app.editor.username);
      await page.getByLabel('Password').fill(app.editor.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page
        .getByRole('heading', { name: 'Allow Notes Assistant to use kb as you?' })
        .waitFor();
      const scopes = page.getByRole('list', { name: 'Requested access' });
      await expect(scopes.getByRole('listitem').allTextContents()).resolves.toEqual([
        expect.stringMatching(/^read Read the pages you can see/),
        expect.stringMatching(/^write Create, edit and move pages as you/),
      ]);
      await page.getByText('you go back to 127.0.0.1:9').waitFor();
      expect(await seriousA11yViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Allow' }).click();
      const url = await back.url;
      expect(url.searchParams.get('state')).toBe('st4te');
      const accessToken = await token(clientId, url.searchParams.get('code')!, verifier);
      const res = await me(accessToken);
      expect(await res.json()).toMatchObject({ username: 'edith', role: 'editor' });
    } finally {
      await context.close();
    }
  });

  it('lets the person limit the app to some pages', async () => {
    await app.as.editor
      .post('/api/pages')
      .send({ slug: 'team-a/notes', title: 'Notes', content: 'x' })
      .expect(201);
    await app.as.editor
      .post('/api/pages')
      .send({ slug: 'team-b/notes', title: 'Notes', content: 'y' })
      .expect(201);
    const clientId = await registerApp('Scoped Assistant');
    const { verifier, challenge } = pkce();
    const context = await openContext({ baseURL: app.url });
    const page = await context.newPage();
    try {
      const back = await catchRedirect(page);
      await signIn(page, app.editor, '/');
      await page.goto(authorizeUrl(clientId, challenge));
      await page.getByLabel('Limit to pages (optional)').fill('team-a/**');
      await page.getByRole('button', { name: 'Allow' }).click();
      const url = await back.url;
      const accessToken = await token(clientId, url.searchParams.get('code')!, verifier);
      const read = (slug: string) =>
        fetch(`${app.url}/api/pages/${slug}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
      expect((await read('team-a/notes')).status).toBe(200);
      expect((await read('team-b/notes')).status).toBe(404);
    } finally {
      await context.close();
    }
  });

  it('shows a reader which scopes are above their role, and a denial goes back to the app', async () => {
    const clientId = await registerApp('Greedy Bot');
    const context = await openContext({ baseURL: app.url });
    const page = await context.newPage();
    try {
      await signIn(page, app.reader);
      const back = await catchRedirect(page);
      await page.goto(authorizeUrl(clientId, pkce().challenge, 'read write admin'));
      await page.getByRole('heading', { name: 'Allow Greedy Bot to use kb as you?' }).waitFor();
      await expect(page.getByText('Not given: more than your role allows.').count()).resolves.toBe(
        2,
      );
      await page.getByText('It will read what you can read. It cannot change anything.').waitFor();
      await page.getByRole('button', { name: 'Deny' }).click();
      expect((await back.url).searchParams.get('error')).toBe('access_denied');
    } finally {
      await context.close();
    }
  });

  it('answers a request from another browser in words', async () => {
    const clientId = await registerApp();
    const starter = await openContext({ baseURL: app.url });
    const other = await openContext({ baseURL: app.url });
    try {
      const first = await starter.newPage();
      await signIn(first, app.editor);
      await first.goto(authorizeUrl(clientId, pkce().challenge));
      await first.waitForURL('**/consent/*');
      const page = await other.newPage();
      await signIn(page, app.editor);
      await page.goto(new URL(first.url()).pathname);
      await page.getByText('This request cannot be answered.').waitFor();
      await page.getByText(/started in another browser/).waitFor();
    } finally {
      await starter.close();
      await other.close();
    }
  });

  for (const [device, viewport, colorScheme] of [
    ['desktop', { width: 1280, height: 800 }, 'light'],
    ['phone', { width: 390, height: 844 }, 'light'],
    ['desktop', { width: 1280, height: 800 }, 'dark'],
    ['phone', { width: 390, height: 844 }, 'dark'],
  ] as const) {
    const suffix = colorScheme === 'dark' ? `${device}-dark` : device;
    it(`reads well on a ${device} (${colorScheme}): consent, Account's apps, admin's Apps`, async () => {
      const clientId = await registerApp(`Assistant ${suffix}`);
      const context = await openContext({ baseURL: app.url, viewport, colorScheme });
      const page = await context.newPage();
      try {
        await signIn(page, app.admin);
        const back = await catchRedirect(page);
        await page.goto(authorizeUrl(clientId, pkce().challenge));
        await page.getByRole('button', { name: 'Allow' }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        if (shots) await page.screenshot({ path: join(shots, `oauth-consent-${suffix}.png`) });
        await page.getByRole('button', { name: 'Allow' }).click();
        await back.url;

        await page.goto('/account');
        const apps = page.getByRole('region', { name: 'Connected apps' });
        await apps.getByRole('row', { name: new RegExp(`Assistant ${suffix}`) }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        if (shots) {
          await apps.scrollIntoViewIfNeeded();
          await page.screenshot({ path: join(shots, `oauth-account-${suffix}.png`) });
        }

        await page.goto('/admin/apps');
        await page.getByRole('heading', { name: 'Apps' }).waitFor();
        await page.getByRole('row', { name: new RegExp(`Assistant ${suffix}`) }).waitFor();
        expect(await seriousA11yViolations(page)).toEqual([]);
        if (shots) await page.screenshot({ path: join(shots, `oauth-admin-${suffix}.png`) });
      } finally {
        await context.close();
      }
    });
  }

  it('revokes an app on the Account screen, and an administrator bans one', async () => {
    const clientId = await registerApp('Revocable');
    const { verifier, challenge } = pkce();
    const context = await openContext({ baseURL: app.url });
    const page = await context.newPage();
    try {
      await signIn(page, app.editor);
      const back = await catchRedirect(page);
      await page.goto(authorizeUrl(clientId, challenge));
      await page.getByRole('button', { name: 'Allow' }).click();
      const accessToken = await token(
        clientId,
        (await back.url).searchParams.get('code')!,
        verifier,
      );
      expect((await me(accessToken)).status).toBe(200);

      await page.goto('/account');
      const apps = page.getByRole('region', { name: 'Connected apps' });
      const row = apps.getByRole('row', { name: /Revocable/ });
      await row.waitFor();
      await expect(row.getByRole('cell').allTextContents()).resolves.toEqual([
        'Read and write',
        expect.any(String),
        'Revoke',
      ]);
      await page.getByRole('button', { name: 'Revoke Revocable' }).click();
      // Gone from the list (apps allowed in earlier tests stay).
      await row.waitFor({ state: 'detached' });
      expect((await me(accessToken)).status).toBe(401);

      // The administrator bans another app someone authorised.
      const banned = await registerApp('Rogue');
      const pair = pkce();
      const back2 = await catchRedirect(page);
      await page.goto(authorizeUrl(banned, pair.challenge));
      await page.getByRole('button', { name: 'Allow' }).click();
      const rogueToken = await token(
        banned,
        (await back2.url).searchParams.get('code')!,
        pair.verifier,
      );
      const admin = await openContext({ baseURL: app.url });
      try {
        const adminPage = await admin.newPage();
        await signIn(adminPage, app.admin);
        await adminPage.goto('/admin/apps');
        const rogue = adminPage.getByRole('row', { name: /Rogue/ });
        await rogue.getByText('edith (editor)').waitFor();
        await adminPage.getByRole('button', { name: 'Ban Rogue' }).click();
        const dialog = adminPage.getByRole('dialog', { name: 'Ban Rogue?' });
        await dialog.getByRole('button', { name: 'Ban' }).click();
        await rogue.getByText('Banned').waitFor();
        await rogue.getByText('Nobody').waitFor();
      } finally {
        await admin.close();
      }
      expect((await me(rogueToken)).status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
