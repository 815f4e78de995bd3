import type { Browser, Page } from 'playwright-core';
import { freePort } from '../support/ports';
import { startSamlIdp, type TestSamlIdp } from '../support/saml-idp';
import { launchBrowser, startConsoleApp, withPage, type ConsoleApp } from './console-app';

/**
 * SAML single sign-on in Chromium: the sign-in screen's "Sign in with …" button, the test IdP's
 * own login page, its auto-submitted form to kb's assertion consumer, back to kb signed in; an
 * answer replayed later is refused in words.
 */
describe('console: sign in with a SAML identity provider', () => {
  let idp: TestSamlIdp;
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    idp = await startSamlIdp({
      serviceProviders: [
        { entityId: `${url}/auth/saml/corp/metadata`, acs: `${url}/auth/saml/corp/acs` },
      ],
      accounts: {
        hedy: {
          password: 'idp-password',
          name: 'Hedy Lamarr',
          email: 'hedy@example.com',
          groups: ['staff', 'writers'],
        },
      },
    });
    [app, browser] = await Promise.all([
      startConsoleApp(
        {
          KB_PUBLIC_URL: url,
          SAML_PROVIDERS: 'corp',
          SAML_CORP_ENTRY_POINT: idp.entryPoint,
          SAML_CORP_IDP_ISSUER: idp.issuer,
          SAML_CORP_IDP_CERT: idp.certFile,
          SAML_CORP_NAME: 'Corp SAML',
          SAML_CORP_ROLE_MAP: 'writers=editor',
          SAML_CORP_GROUP_MAP: 'staff=ops',
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

  it('signs in through the IdP’s login page and lands where it started, signed in', () =>
    inPage(async (page) => {
      await page.goto('/notifications');
      await page.waitForURL('**/login?next=%2Fnotifications');
      await page.getByRole('button', { name: 'Sign in with Corp SAML' }).click();

      // The IdP's own login page; its answer is a form the browser posts to kb.
      await page.waitForURL(`${idp.entryPoint}?SAMLRequest=**`);
      await page.getByLabel('IdP username').fill('hedy');
      await page.getByLabel('IdP password').fill('wrong');
      await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
      await page.getByRole('alert').getByText('Wrong username or password.').waitFor();
      await page.getByLabel('IdP username').fill('hedy');
      await page.getByLabel('IdP password').fill('idp-password');
      const posted = page.waitForRequest((r) => r.url() === `${app.url}/auth/saml/corp/acs`);
      await page.getByRole('button', { name: 'Sign in at the IdP' }).click();
      const acs = await posted;
      expect(acs.method()).toBe('POST');

      await page.waitForURL(`${app.url}/notifications`);
      await page.getByRole('searchbox', { name: 'Search' }).waitFor();
      await page.getByRole('button', { name: 'Account: hedy' }).click();
      await page.getByText('editor', { exact: true }).waitFor();
      const me = await page.evaluate(async () => (await fetch('/api/me')).json());
      expect(me).toEqual({
        id: expect.any(String),
        username: 'hedy',
        displayName: 'Hedy Lamarr',
        role: 'editor',
        groups: ['ops'],
      });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${app.url}/login`);
      expect((await page.request.get('/api/me')).status()).toBe(401);

      // The same answer posted again (a replay, e.g. from the browser's history) is refused.
      const form = new URLSearchParams(acs.postData() ?? '');
      await page.setContent(
        `<form method="post" action="${app.url}/auth/saml/corp/acs"><input type="hidden" name="SAMLResponse" value="${form.get('SAMLResponse')}"><button>Post again</button></form>`,
      );
      await page.getByRole('button', { name: 'Post again' }).click();
      await page.waitForURL('**/login?sso_error=sso_assertion_replayed');
      await page.getByRole('alert').getByText('already used, so nobody was signed in').waitFor();
      expect((await page.request.get('/api/me')).status()).toBe(401);
    }));
});
