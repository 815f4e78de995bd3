import type { Browser, Page } from 'playwright-core';
import {
  LDAP_BASE,
  SERVICE_DN,
  SERVICE_PASSWORD,
  startLdapServer,
  type TestLdapServer,
} from '../support/ldap-server';
import { launchBrowser, startConsoleApp, withPage, type ConsoleApp } from './console-app';

/**
 * LDAP sign-in in Chromium: a directory person types their directory name and password in the
 * sign-in screen's usual "Username" and "Password" fields and lands signed in, provisioned with
 * the mapped role and group; the Account screen says the session came from the directory, the
 * users screen lists the sign-in method; a wrong password and a directory that is down are
 * said in words.
 */
describe('console: sign in with a directory (LDAP) account', () => {
  let server: TestLdapServer;
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    server = await startLdapServer([
      {
        uid: 'hopper',
        password: 'directory-password',
        displayName: 'Grace Hopper',
        mail: 'hopper@example.org',
        groups: ['writers', 'staff'],
      },
    ]);
    [app, browser] = await Promise.all([
      startConsoleApp({
        LDAP_URL: server.url,
        LDAP_BIND_DN: SERVICE_DN,
        LDAP_BIND_PASSWORD: SERVICE_PASSWORD,
        LDAP_SEARCH_BASE: LDAP_BASE,
        LDAP_USER_FILTER: '(uid={username})',
        LDAP_ROLE_MAP: 'writers=editor',
        LDAP_GROUP_MAP: 'staff=ops',
      }),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  const inPage = (run: (page: Page) => Promise<void>) => withPage(browser, app, run);

  async function fillSignIn(page: Page, username: string, password: string) {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  it('signs a directory person in through the Username and Password fields', () =>
    inPage(async (page) => {
      await page.goto('/login?next=%2Faccount');
      await fillSignIn(page, 'hopper', 'directory-password');
      await page.waitForURL(`${app.url}/account`);
      await page.getByRole('button', { name: 'Account: hopper' }).waitFor();
      const me = await page.evaluate(async () => (await fetch('/api/me')).json());
      expect(me).toEqual({
        id: expect.any(String),
        username: 'hopper',
        displayName: 'Grace Hopper',
        role: 'editor',
        groups: ['ops'],
      });
      // The Account screen's sessions say how this one was made.
      const sessions = page.getByRole('table', { name: /sessions/i });
      await sessions.getByRole('cell', { name: 'ldap', exact: true }).waitFor();
    }));

  it('lists the sign-in method of each person on the users screen', () =>
    inPage(async (page) => {
      await page.goto('/login?next=%2Fadmin%2Fusers');
      await fillSignIn(page, app.admin.username, app.admin.password);
      const users = page.getByRole('table', { name: 'Users' });
      const hopper = users.getByRole('row').filter({ hasText: 'Grace Hopper' });
      await hopper.getByRole('cell', { name: 'ldap', exact: true }).waitFor();
      const ada = users
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: /^ada/ }) });
      await ada.getByRole('cell', { name: 'local', exact: true }).waitFor();
    }));

  it('says in words that the password was wrong, or that the directory is down', () =>
    inPage(async (page) => {
      await page.goto('/login');
      await fillSignIn(page, 'hopper', 'not-the-password');
      await page.getByRole('alert').getByText('The username or password is wrong').waitFor();

      await server.stop();
      try {
        await fillSignIn(page, 'hopper', 'directory-password');
        await page
          .getByRole('alert')
          .getByText('The directory (LDAP) could not be reached')
          .waitFor();
        expect((await page.request.get('/api/me')).status()).toBe(401);
      } finally {
        await server.start();
      }
    }));
});
