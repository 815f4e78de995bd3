import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/common/config/app-config';
import { Service, startNginx } from '../cluster/services';
import { freePort } from '../support/ports';
import { CookieJar, signInAtIdp } from '../support/oidc-flow';
import { startIdp, TestIdp } from '../support/oidc-idp';
import { signInAtSamlIdp, startSamlIdp, TestSamlIdp } from '../support/saml-idp';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';

/**
 * Two kb instances on one database behind nginx with deploy/nginx/kb.conf (round robin): an
 * OpenID Connect sign-in, and a SAML one, that starts on one instance finishes on the other,
 * as a browser sees it through the balancer.
 */
describe('OpenID Connect sign-in behind nginx across two instances', () => {
  let dir: string;
  let base: TestApp;
  const instances: TestApp[] = [];
  let nginx: Service;
  let idp: TestIdp;
  let samlIdp: TestSamlIdp;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kb-oidc-nginx-'));
    const ports = [await freePort(), await freePort()];
    base = await createTestApp({ TRUST_PROXY: 'loopback' });
    // nginx checks /healthz through an upstream before it counts as started.
    const starter = await createPeerApp(base);
    await starter.app.listen(ports[0], '127.0.0.1');
    nginx = await startNginx(dir, ports);
    await starter.close();

    idp = await startIdp({
      clients: [
        {
          client_id: 'kb',
          client_secret: 'nginx-secret',
          redirect_uris: [`${nginx.url}/auth/oidc/corp/callback`],
        },
      ],
      accounts: {
        ada: { password: 'idp-password', name: 'Ada', email: 'a@example.com', groups: ['eng'] },
      },
    });
    samlIdp = await startSamlIdp({
      serviceProviders: [
        {
          entityId: `${nginx.url}/auth/saml/corp/metadata`,
          acs: `${nginx.url}/auth/saml/corp/acs`,
        },
      ],
      accounts: {
        grace: { password: 'idp-password', name: 'Grace', email: 'g@example.com', groups: ['ops'] },
      },
    });
    const sso = loadConfig({
      KB_PUBLIC_URL: nginx.url,
      OIDC_PROVIDERS: 'corp',
      OIDC_CORP_ISSUER: idp.issuer,
      OIDC_CORP_CLIENT_ID: 'kb',
      OIDC_CORP_CLIENT_SECRET: 'nginx-secret',
      OIDC_CORP_GROUP_MAP: 'eng=engineering',
      SAML_PROVIDERS: 'corp',
      SAML_CORP_ENTRY_POINT: samlIdp.entryPoint,
      SAML_CORP_IDP_ISSUER: samlIdp.issuer,
      SAML_CORP_IDP_CERT: samlIdp.certPem,
      SAML_CORP_GROUP_MAP: 'ops=ops',
    });
    for (const port of ports) {
      const instance = await createPeerApp(base, {
        http: { ...base.config.http, publicUrl: sso.http.publicUrl },
        oidc: sso.oidc,
        saml: sso.saml,
      });
      await instance.app.listen(port, '127.0.0.1');
      instances.push(instance);
    }
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await nginx?.stop();
    await idp?.close();
    await samlIdp?.close();
    await base?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts on one instance and signs in on the other', async () => {
    const browser = new CookieJar();
    const start = await fetch(`${nginx.url}/auth/oidc/corp/login?returnTo=%2Fpages%2Fx`, {
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    browser.take(start);
    const startedOn = start.headers.get('x-kb-upstream');
    expect(startedOn).toMatch(/^127\.0\.0\.1:\d+$/);

    const back = await signInAtIdp(start.headers.get('location')!, 'ada', 'idp-password');
    expect(back.startsWith(`${nginx.url}/auth/oidc/corp/callback?`)).toBe(true);
    const done = await fetch(back, { headers: { cookie: browser.header() }, redirect: 'manual' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${nginx.url}/pages/x`);
    // Round robin over two instances: the callback was answered by the other one.
    expect(done.headers.get('x-kb-upstream')).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(done.headers.get('x-kb-upstream')).not.toBe(startedOn);
    browser.take(done);

    const me = await fetch(`${nginx.url}/api/me`, { headers: { cookie: browser.header() } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'ada', groups: ['engineering'] });
  });

  it('starts a SAML sign-in on one instance and consumes the assertion on the other', async () => {
    const start = await fetch(`${nginx.url}/auth/saml/corp/login?returnTo=%2Fpages%2Fy`, {
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const startedOn = start.headers.get('x-kb-upstream');
    expect(startedOn).toMatch(/^127\.0\.0\.1:\d+$/);

    const form = await signInAtSamlIdp(start.headers.get('location')!, 'grace', 'idp-password');
    expect(form.action).toBe(`${nginx.url}/auth/saml/corp/acs`);
    const done = await fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: form.SAMLResponse }).toString(),
      redirect: 'manual',
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${nginx.url}/pages/y`);
    expect(done.headers.get('x-kb-upstream')).not.toBe(startedOn);
    const browser = new CookieJar();
    browser.take(done);
    const me = await fetch(`${nginx.url}/api/me`, { headers: { cookie: browser.header() } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ username: 'grace', groups: ['ops'] });
  });
});
