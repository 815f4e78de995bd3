import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../support/ports';
import type { Client, TestUser } from '../support/users';
import { launchBrowser, startConsoleApp, type ConsoleApp } from './console-app';

/** A TOTP code `offset` seconds from now (a step the server has not accepted yet). */
const codeAt = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset });

/** Turns TOTP on for a client through the API; answers the secret. */
async function enrolThroughApi(client: Client): Promise<string> {
  const setup = await client.post('/api/me/two-factor/totp').expect(200);
  const secret = setup.body.secret as string;
  await client
    .post('/api/me/two-factor/totp/enable')
    .send({ code: await codeAt(secret) })
    .expect(200);
  return secret;
}

/**
 * Two-factor sign-in in Chromium: TOTP set up on the Account screen (the secret read from the
 * screen, codes computed here), signing in with a code and with a recovery code; a passkey made
 * by Chromium's virtual authenticator (DevTools protocol WebAuthn domain) and used to sign in
 * without a password; and that passkey refused for someone else's pending sign-in.
 * WebAuthn needs a secure context and a domain as RP ID: the app is opened as http://localhost.
 */
describe('console: two-factor and passkeys', () => {
  let app: ConsoleApp;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://localhost:${port}`;
    [app, browser] = await Promise.all([
      startConsoleApp({ KB_PUBLIC_URL: url }, port),
      launchBrowser(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function inContext(run: (page: Page, context: BrowserContext) => Promise<void>) {
    const context = await browser.newContext({
      baseURL: url,
      viewport: { width: 1280, height: 800 },
    });
    try {
      await run(await context.newPage(), context);
    } finally {
      await context.close();
    }
  }

  async function password(page: Page, user: TestUser) {
    await page.goto('/login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  const shell = (page: Page) =>
    page.getByRole('searchbox', { name: 'Search', exact: true }).waitFor();

  it('sets up TOTP on the Account screen, then signs in with a code and with a recovery code', async () => {
    let secret = '';
    let recoveryCodes: string[] = [];
    await inContext(async (page) => {
      await password(page, app.editor);
      await shell(page);
      await page.goto('/account');
      const section = page.getByRole('region', { name: 'Two-factor' });
      await section.getByRole('button', { name: 'Set up two-factor' }).click();
      await section.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      secret = (await section.locator('.totp__secret').textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      // A wrong first code is refused beside the field.
      await section.getByLabel('Code').fill('000000');
      await section.getByRole('button', { name: 'Enable' }).click();
      await section.getByText('The code is wrong or too old; try the next one.').waitFor();
      await section.getByLabel('Code').fill(await codeAt(secret));
      await section.getByRole('button', { name: 'Enable' }).click();
      const list = section.getByRole('list', { name: 'Recovery codes' });
      await list.waitFor();
      recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
      expect(recoveryCodes).toHaveLength(10);
      await section.getByText(/Two-factor sign-in is on/).waitFor();
    });

    await inContext(async (page) => {
      await password(page, app.editor);
      // No session yet: the code step.
      await page.getByLabel('Code').fill('111111');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page
        .getByRole('alert')
        .getByText(/The code is wrong/)
        .waitFor();
      await page.getByLabel('Code').fill(await codeAt(secret, 30));
      await page.getByRole('button', { name: 'Verify' }).click();
      await shell(page);
    });

    await inContext(async (page) => {
      await password(page, app.editor);
      await page.getByLabel('Code').fill(recoveryCodes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await shell(page);
      await page.goto('/account');
      await page.getByText(/9 recovery codes left/).waitFor();
    });

    // The same recovery code a second time: refused in words, nobody signed in.
    await inContext(async (page) => {
      await password(page, app.editor);
      await page.getByLabel('Code').fill(recoveryCodes[0]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page
        .getByRole('alert')
        .getByText(/The code is wrong, already used/)
        .waitFor();
      expect((await page.context().cookies()).some((c) => c.name === 'kb_session')).toBe(false);
    });
  });

  it('shows each user’s factors on the users screen and resets them with “Reset two-factor”', async () => {
    await enrolThroughApi(app.as.reader);
    await inContext(async (page) => {
      await password(page, app.admin);
      await shell(page);
      await page.goto('/admin/users');
      const row = page.getByRole('row', { name: new RegExp(`^${app.reader.username}\\b`) });
      await row.getByText('Two-factor: authenticator app').waitFor();
      await row.getByRole('button', { name: 'Reset two-factor', exact: true }).click();
      await row.getByText('Two-factor: none').waitFor();
    });
    const after = await app.as.admin.get(`/api/users/${app.reader.id}`).expect(200);
    expect(after.body.twoFactor).toEqual({ totp: false, passkeys: 0 });
  });

  it('registers a passkey with a virtual authenticator and signs in with it alone; it is refused for someone else', async () => {
    const victimSecret = await enrolThroughApi(app.as.reader);
    expect(victimSecret).toBeTruthy();
    await inContext(async (page, context) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });

      await password(page, app.admin);
      await shell(page);
      await page.goto('/account');
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByLabel('Passkey name').fill('Virtual key');
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      await passkeys.getByRole('button', { name: 'Remove passkey Virtual key' }).waitFor();

      // Signed out, the passkey alone signs in (a discoverable credential names its user).
      await context.clearCookies();
      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await shell(page);
      const sessions = await page.evaluate(async () => {
        const res = await fetch('/api/me/sessions');
        return (await res.json()) as { items: { current: boolean; method: string }[] };
      });
      expect(sessions.items.find((s) => s.current)?.method).toBe('passkey');
      const me = await page.evaluate(
        async () =>
          (await (await fetch('/api/me')).json()) as {
            username: string;
          },
      );
      expect(me.username).toBe(app.admin.username);

      // The reader's password is known to an attacker who holds the admin's passkey: the
      // assertion is refused for the reader's pending sign-in.
      await context.clearCookies();
      await password(page, app.reader);
      await page.getByLabel('Code').waitFor();
      const answer = await page.evaluate(async () => {
        const b64 = (buffer: ArrayBuffer) =>
          btoa(String.fromCharCode(...new Uint8Array(buffer)))
            .replace(/\+/g, '-')
            .replace(/\//g, '_')
            .replace(/=+$/, '');
        const bytes = (text: string) =>
          Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
        const options = (await (
          await fetch('/auth/passkey/options', { method: 'POST' })
        ).json()) as { challenge: string; rpId: string; allowCredentials: unknown[] };
        const credential = (await navigator.credentials.get({
          publicKey: {
            challenge: bytes(options.challenge),
            rpId: options.rpId,
            allowCredentials: [],
            userVerification: 'preferred',
          },
        })) as PublicKeyCredential;
        const response = credential.response as AuthenticatorAssertionResponse;
        const res = await fetch('/auth/passkey/verify', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            response: {
              id: credential.id,
              rawId: b64(credential.rawId),
              type: credential.type,
              clientExtensionResults: {},
              response: {
                clientDataJSON: b64(response.clientDataJSON),
                authenticatorData: b64(response.authenticatorData),
                signature: b64(response.signature),
                userHandle: response.userHandle ? b64(response.userHandle) : undefined,
              },
            },
          }),
        });
        return { status: res.status, body: (await res.json()) as { code: string; detail: string } };
      });
      expect(answer).toEqual({
        status: 401,
        body: expect.objectContaining({
          code: 'passkey_invalid',
          detail: 'This passkey belongs to someone else.',
        }),
      });
      expect((await context.cookies()).some((c) => c.name === 'kb_session')).toBe(false);
    });
  });
});
