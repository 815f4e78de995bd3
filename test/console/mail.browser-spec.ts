import type { Browser, Page } from 'playwright-core';
import { UsersService } from '../../src/auth/users.service';
import { freePort } from '../support/ports';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { launchBrowser, signIn, startConsoleApp, withPage, type ConsoleApp } from './console-app';

/**
 * Email in Chromium with a real SMTP server: an administrator invites someone from the users
 * screen; the invitee reads the message, follows its link, sets a password and signs in.
 * "Forgot password?" on the sign-in screen mails a link that sets a new password and signs the
 * account out everywhere. A used link says so in words.
 */
describe('console: invitations and password reset by email', () => {
  let smtp: TestSmtpServer;
  let app: ConsoleApp;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    smtp = await startSmtpServer();
    [app, browser] = await Promise.all([
      startConsoleApp(
        {
          KB_PUBLIC_URL: `http://127.0.0.1:${port}`,
          SMTP_URL: smtp.url,
          MAIL_FROM: 'kb <kb@kb.test>',
        },
        port,
      ),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
  });

  const inPage = (run: (page: Page) => Promise<void>) => withPage(browser, app, run);

  it('invites from the users screen; the invitee follows the emailed link, sets a password and signs in', async () => {
    await inPage(async (page) => {
      await signIn(page, app.admin);
      await page.goto('/admin/users');
      await page.getByRole('button', { name: 'Invite' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Email').fill('new.person@example.com');
      await dialog.getByLabel('Role').selectOption('editor');
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await dialog.getByText('Invitation sent to new.person@example.com').waitFor();
      await dialog.getByRole('button', { name: 'Done' }).click();
      const pending = page.getByRole('table', { name: 'Pending invitations' });
      await pending.getByText('new.person@example.com').waitFor();
    });

    const mail = await smtp.waitFor('new.person@example.com');
    const link = linkIn(mail, `${app.url}/invitation#token=`);
    await inPage(async (page) => {
      await page.goto(link);
      await page.getByText('You were invited as editor').waitFor();
      await page.getByLabel('Username').fill('newperson');
      await page.getByLabel('New password').fill('my-own-password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your account is ready').waitFor();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, {
        id: '',
        username: 'newperson',
        password: 'my-own-password',
        role: 'editor',
      });
    });
    const user = await app.t.get(UsersService).findActiveByUsername('newperson');
    expect(user).toMatchObject({ role: 'editor', email: 'new.person@example.com' });

    // Used: the same link again says so, in words.
    await inPage(async (page) => {
      await page.goto(link);
      await page.getByRole('alert').getByText('accepted already').waitFor();
    });
  });

  it('revokes a pending invitation from the users screen', () =>
    inPage(async (page) => {
      await app.as.admin
        .post('/api/invitations')
        .send({ email: 'changed.mind@example.com', role: 'reader' })
        .expect(201);
      await signIn(page, app.admin);
      await page.goto('/admin/users');
      await page
        .getByRole('button', { name: 'Revoke the invitation of changed.mind@example.com' })
        .click();
      await page.getByText('changed.mind@example.com').waitFor({ state: 'detached' });
      const list = await app.as.admin.get('/api/invitations').expect(200);
      expect(list.body.items.map((i: { email: string }) => i.email)).not.toContain(
        'changed.mind@example.com',
      );
    }));

  it('“Forgot password?” mails a link that sets a new password and ends every session', async () => {
    await app.t
      .get(UsersService)
      .update(app.reader.id, { email: 'rita@example.com' }, app.admin.id);
    await app.as.reader.get('/api/me').expect(200);

    await inPage(async (page) => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByLabel('Email').fill('rita@example.com');
      await page.getByRole('button', { name: 'Send link' }).click();
      await page.getByText('If an account has this address').waitFor();
    });

    const mail = await smtp.waitFor('rita@example.com');
    const link = linkIn(mail, `${app.url}/reset-password#token=`);
    await inPage(async (page) => {
      await page.goto(link);
      await page.getByLabel('New password').fill('rita-new-password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your password is set').waitFor();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, { ...app.reader, password: 'rita-new-password' });
    });
    // The session she had before the reset ended.
    await app.as.reader.get('/api/me').expect(401);

    await inPage(async (page) => {
      await page.goto(link);
      await page.getByLabel('New password').fill('another-password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('alert').getByText('used already').waitFor();
    });
  });
});
