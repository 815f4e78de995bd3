import { createServer } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { startIdp, type TestIdp } from '../support/oidc-idp';
import { launchBrowser, startConsoleApp, withPage, type ConsoleApp } from './console-app';

/** A free loopback port, so KB_PUBLIC_URL (and the callback registered at the IdP) is known. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Single sign-on in Chromium: the sign-in screen's "Sign in with …" button, the provider's own
 * login and consent pages (oidc-provider), back to kb signed in; a refused sign-in in words;
 * sign-out that ends the provider's session too.
 */
describe('console: sign in with an OpenID Connect provider', () => {
  let idp: TestIdp;
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    idp = await startIdp({
      clients: [
        {
          client_id: 'kb-console',
          client_secret: 'console-secret',
          redirect_uris: [`${url}/auth/oidc/corp/callback`],
          post_logout_redirect_uris: [`${url}/login`],
        },
      ],
      accounts: {
        grace: {
          password: 'idp-password',
          name: 'Grace Hopper',
          email: 'grace@example.com',
          groups: ['staff', 'writers'],
        },
      },
    });
    [app, browser] = await Promise.all([
      startConsoleApp(
        {
          KB_PUBLIC_URL: url,
          OIDC_PROVIDERS: 'corp',
          OIDC_CORP_ISSUER: idp.issuer,
          OIDC_CORP_CLIENT_ID: 'kb-console',
          OIDC_CORP_CLIENT_SECRET: 'console-secret',
          OIDC_CORP_NAME: 'Corp SSO',
          OIDC_CORP_ROLE_MAP: 'writers=editor',
          OIDC_CORP_GROUP_MAP: 'staff=ops',
        },
        port,
      ),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await idp?.close();
  });

  const inPage = (run: (page: Page) => Promise<void>) => withPage(browser, app, run);

  it('signs in through the provider’s pages and lands where it started, signed in', () =>
    inPage(async (page) => {
      await page.goto('/notifications');
      await page.waitForURL('**/login?next=%2Fnotifications');
      await page.getByRole('button', { name: 'Sign in with Corp SSO' }).click();

      // The provider's own login page, then its consent page.
      await page.waitForURL(`${idp.issuer}/interaction/**`);
      await page.getByLabel('Username').fill('grace');
      await page.getByLabel('Password').fill('idp-password');
      await page.getByRole('button', { name: 'Sign in to the IdP' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();

      await page.waitForURL(`${app.url}/notifications`);
      await page.getByRole('searchbox', { name: 'Search' }).waitFor();
      await page.getByRole('button', { name: 'Account: grace' }).click();
      await page.getByText('editor', { exact: true }).waitFor();
      const me = await page.evaluate(async () => (await fetch('/api/me')).json());
      expect(me).toEqual({
        id: expect.any(String),
        username: 'grace',
        displayName: 'Grace Hopper',
        role: 'editor',
        groups: ['ops'],
      });

      // Signing out ends the provider's session too (RP-initiated logout), then back to kb.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${idp.issuer}/session/end**`);
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await page.waitForURL(`${app.url}/login`);
      expect((await page.request.get('/api/me')).status()).toBe(401);
      await page.getByRole('button', { name: 'Sign in with Corp SSO' }).waitFor();
    }));

  it('says in words why a sign-in was refused, and nobody is signed in', () =>
    inPage(async (page) => {
      await page.goto('/auth/oidc/corp/callback?state=forged&code=stolen');
      await page.waitForURL('**/login?sso_error=sso_state_invalid');
      await page
        .getByRole('alert')
        .getByText('That sign-in could not be finished: it was unknown, expired, already used')
        .waitFor();
      expect((await page.request.get('/api/me')).status()).toBe(401);
    }));
});
