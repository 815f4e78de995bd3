import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { captureLogs, LogCapture } from '../support/log-capture';
import { cookieValue } from '../support/oidc-flow';
import { problem, PROBLEM_CONTENT_TYPE } from '../support/problems';
import {
  makeKeyPair,
  ResponseOptions,
  SamlIdpAccount,
  signInAtSamlIdp,
  startSamlIdp,
  TestSamlIdp,
} from '../support/saml-idp';
import { createPeerApp, createTestApp, TestApp } from '../support/test-app';
import { Client, createGroup, signedIn } from '../support/users';

/**
 * SAML 2.0 sign-in against a real identity provider built for the tests (test/support/saml-idp.ts:
 * it signs assertions with xml-crypto and a key openssl made): metadata, provisioning and
 * mappings, encrypted assertions, IdP-initiated sign-in, and every refused answer performed.
 */
const PUBLIC_URL = 'http://kb.test';
const CORP_ENTITY = `${PUBLIC_URL}/auth/saml/corp/metadata`;
const CORP_ACS = `${PUBLIC_URL}/auth/saml/corp/acs`;
const PORTAL_ENTITY = `${PUBLIC_URL}/auth/saml/portal/metadata`;
const PORTAL_ACS = `${PUBLIC_URL}/auth/saml/portal/acs`;

function account(groups: string[], extra: Partial<SamlIdpAccount> = {}): SamlIdpAccount {
  return {
    password: 'idp-password',
    name: 'Test Person',
    email: 'p@example.com',
    groups,
    ...extra,
  };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('SAML 2.0 sign-in', () => {
  let idp: TestSamlIdp;
  let t: TestApp;
  let logs: LogCapture;
  let admin: Client;
  const kbKeys = makeKeyPair('kb-sp-portal');

  beforeAll(async () => {
    idp = await startSamlIdp({
      serviceProviders: [
        { entityId: CORP_ENTITY, acs: CORP_ACS },
        { entityId: PORTAL_ENTITY, acs: PORTAL_ACS, encryptionCert: kbKeys.cert },
      ],
      // Each person has an address of their own: one verified address is one person (a second
      // identity with it is refused unless SSO_LINK_BY_EMAIL joins them).
      accounts: {
        ada: account(['idp-eng', 'idp-editors'], {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
        }),
        linus: account(['idp-eng'], { email: 'linus@example.com' }),
        mallory: account(['idp-readers'], { email: 'mallory@example.com' }),
        eve: account(['idp-eng'], { email: 'eve@example.com' }),
        pat: account(['idp-ops'], { email: 'pat@example.com' }),
        quinn: account(['idp-ops'], { email: 'quinn@example.com' }),
        rita: account(['idp-readers'], { email: 'rita@example.com', nameId: 'rita@example.com' }),
        blocked: account(['idp-eng'], { email: 'blocked@example.com', blocked: true }),
      },
    });
    logs = captureLogs();
    t = await createTestApp({
      KB_PUBLIC_URL: PUBLIC_URL,
      LOG_LEVEL: 'info',
      SAML_PROVIDERS: 'corp,portal',
      SAML_CORP_ENTRY_POINT: idp.entryPoint,
      SAML_CORP_IDP_ISSUER: idp.issuer,
      SAML_CORP_IDP_CERT: idp.certPem,
      SAML_CORP_NAME: 'Corp SAML',
      SAML_CORP_USERNAME_ATTRIBUTE: 'username',
      SAML_CORP_ROLE_MAP: 'idp-admins=admin,idp-editors=editor,idp-readers=reader',
      SAML_CORP_GROUP_MAP: 'idp-eng=engineering,idp-ops=ops',
      // The certificate as a file, kb's own key for encrypted assertions, IdP-initiated on.
      SAML_PORTAL_ENTRY_POINT: idp.entryPoint,
      SAML_PORTAL_IDP_ISSUER: idp.issuer,
      SAML_PORTAL_IDP_CERT: idp.certFile,
      SAML_PORTAL_NAME: 'Portal',
      SAML_PORTAL_IDP_INITIATED: 'true',
      SAML_PORTAL_SP_PRIVATE_KEY: kbKeys.key,
      SAML_PORTAL_SP_CERT: kbKeys.cert,
      SAML_PORTAL_GROUP_MAP: 'idp-readers=readers',
    });
    admin = await signedIn(t, 'admin');
  });
  afterAll(async () => {
    logs?.stop();
    await t?.close();
    await idp?.close();
  });

  /** Starts a sign-in on `app`: the IdP's sign-on URL carrying kb's AuthnRequest. */
  async function begin(app: TestApp, returnTo?: string, id = 'corp') {
    const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
    const res = await app.http().get(`/auth/saml/${id}/login${query}`).expect(302);
    const url = new URL(res.headers.location as string);
    const xml = inflateRawSync(
      Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64'),
    ).toString();
    const requestId = /ID="([^"]+)"/.exec(xml)![1];
    return { url: url.toString(), requestId, xml };
  }

  function post(app: TestApp, form: { SAMLResponse: string; RelayState?: string }, id = 'corp') {
    return app
      .http()
      .post(`/auth/saml/${id}/acs`)
      .type('form')
      .send({
        SAMLResponse: form.SAMLResponse,
        ...(form.RelayState ? { RelayState: form.RelayState } : {}),
      });
  }

  /** A whole sign-in of `username` through the IdP's login page. */
  async function signInAs(username: string, app = t, returnTo?: string, id = 'corp') {
    const { url } = await begin(app, returnTo, id);
    const form = await signInAtSamlIdp(url, username, 'idp-password');
    expect(form.action).toBe(id === 'corp' ? CORP_ACS : PORTAL_ACS);
    return post(app, form, id);
  }

  function sessionOf(res: { headers: Record<string, unknown> }): Client {
    const secret = cookieValue(res.headers['set-cookie'] as string[], 'kb_session');
    if (!secret) throw new Error('no session cookie');
    return new Client(t, { cookie: `kb_session=${secret}` });
  }

  async function countSessions(): Promise<number> {
    const [row] = await t.dataSource.query('SELECT COUNT(*) AS n FROM sessions');
    return Number(row.n);
  }

  async function expectNobodySignedIn(
    res: { headers: Record<string, unknown> },
    sessionsBefore: number,
  ) {
    expect(cookieValue(res.headers['set-cookie'] as string[], 'kb_session')).toBeUndefined();
    expect(await countSessions()).toBe(sessionsBefore);
  }

  it('lists the SAML providers for the sign-in screen', async () => {
    const res = await t.http().get('/auth/providers').expect(200);
    expect(res.body).toEqual({
      items: [
        { id: 'corp', name: 'Corp SAML', protocol: 'saml', signInUrl: '/auth/saml/corp/login' },
        { id: 'portal', name: 'Portal', protocol: 'saml', signInUrl: '/auth/saml/portal/login' },
      ],
    });
  });

  it('publishes SP metadata with the entity id, the assertion consumer and the encryption key', async () => {
    const res = await t.http().get('/auth/saml/corp/metadata').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    const xml = res.text;
    expect(xml).toContain(`entityID="${CORP_ENTITY}"`);
    expect(xml).toMatch(
      new RegExp(
        `<AssertionConsumerService[^>]*Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"[^>]*Location="${CORP_ACS}"`,
      ),
    );
    expect(xml).toContain('WantAssertionsSigned="true"');
    expect(xml).not.toContain('KeyDescriptor');
    const portal = (await t.http().get('/auth/saml/portal/metadata').expect(200)).text;
    expect(portal).toContain(`entityID="${PORTAL_ENTITY}"`);
    expect(portal).toContain('<KeyDescriptor use="encryption">');
    const body = kbKeys.cert.replace(/-----[A-Z ]+-----|\s/g, '');
    expect(portal.replace(/\s/g, '')).toContain(body);
    expect(portal).not.toContain('PRIVATE KEY');
  });

  it('sends the browser to the IdP with an AuthnRequest whose id lives in the database', async () => {
    const { url, requestId, xml } = await begin(t);
    expect(url.startsWith(`${idp.entryPoint}?SAMLRequest=`)).toBe(true);
    expect(xml).toContain(`AssertionConsumerServiceURL="${CORP_ACS}"`);
    expect(xml).toContain(`>${CORP_ENTITY}</saml:Issuer>`);
    const rows = await t.dataSource.query(
      'SELECT provider, expires_at FROM sso_login_states WHERE id = ?',
      [sha256(requestId)],
    );
    expect(rows).toEqual([{ provider: 'saml:corp', expires_at: expect.anything() }]);
  });

  it('provisions the person at the first sign-in with the mapped role and groups (audited)', async () => {
    const before = logs.lines().length;
    const { url } = await begin(t, '/pages/handbook?tab=1');
    const form = await signInAtSamlIdp(url, 'ada', 'idp-password');
    const res = await post(t, form);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/handbook?tab=1`);
    const me = await sessionOf(res).get('/api/me').expect(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      username: 'ada',
      displayName: 'Ada Lovelace',
      role: 'editor',
      groups: ['engineering'],
    });
    const [identity] = await t.dataSource.query(
      'SELECT provider, subject FROM sso_identities WHERE user_id = ?',
      [me.body.id],
    );
    expect(identity).toEqual({ provider: 'saml:corp', subject: 'ada' });
    const lines = logs.lines().slice(before);
    expect(lines.filter((l) => l.context === 'audit')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'sso.user.provisioned',
          target: `user:${me.body.id}`,
          username: 'ada',
          provider: 'saml:corp',
          role: 'editor',
          groups: ['engineering'],
        }),
        expect.objectContaining({
          event: 'auth.sso.login.succeeded',
          actorId: me.body.id,
          provider: 'saml:corp',
        }),
      ]),
    );
    // Nothing secret in any line: no SAML response, assertion or session secret.
    const text = JSON.stringify(lines);
    expect(text).not.toContain(form.SAMLResponse.slice(0, 40));
    expect(text).not.toContain('Assertion');
    expect(text).not.toContain(cookieValue(res.headers['set-cookie'], 'kb_session')!);
  });

  it('re-applies the mappings at every sign-in (audited)', async () => {
    const first = await signInAs('linus');
    const me = await sessionOf(first).get('/api/me').expect(200);
    expect(me.body).toMatchObject({ role: 'reader', groups: ['engineering'] });
    await createGroup(t, 'saml-handbook');
    await admin
      .patch(`/api/users/${me.body.id}`)
      .send({ groups: ['engineering', 'saml-handbook'] })
      .expect(200);
    await idp.setAccount('linus', account(['idp-ops', 'idp-admins']));
    const before = logs.lines().length;
    const second = await signInAs('linus');
    expect(second.status).toBe(303);
    const after = await sessionOf(second).get('/api/me').expect(200);
    expect(after.body).toMatchObject({
      id: me.body.id,
      role: 'admin',
      groups: ['ops', 'saml-handbook'],
    });
    expect(logs.lines().slice(before)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          event: 'sso.mapping.applied',
          target: `user:${me.body.id}`,
          provider: 'saml:corp',
          role: 'admin',
          previousRole: 'reader',
          groupsAdded: ['ops'],
          groupsRemoved: ['engineering'],
        }),
      ]),
    );
  });

  it('signs in with an encrypted assertion (kb decrypts it with its own key)', async () => {
    const res = await signInAs('rita', t, '/pages/enc', 'portal');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/enc`);
    const me = await sessionOf(res).get('/api/me').expect(200);
    // NameID is the username by default; an address gives its local part.
    expect(me.body).toMatchObject({ username: 'rita', groups: ['readers'] });
  });

  /** A started sign-in and a Response built for it, changed as `change` says. */
  async function answered(change: Partial<ResponseOptions>, account = 'mallory') {
    const { requestId } = await begin(t);
    return idp.response({
      account,
      audience: CORP_ENTITY,
      recipient: CORP_ACS,
      inResponseTo: requestId,
      ...change,
    });
  }

  async function expectRefused(
    SAMLResponse: string,
    status: number,
    code: string,
    reason: string,
    detail?: RegExp,
    id = 'corp',
  ) {
    const sessions = await countSessions();
    const before = logs.lines().length;
    const res = await post(t, { SAMLResponse }, id);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(PROBLEM_CONTENT_TYPE);
    expect(res.body).toEqual(problem(status, code));
    await expectNobodySignedIn(res, sessions);
    const lines = logs.lines().slice(before);
    expect(lines.filter((l) => l.event === 'auth.sso.login.failed')).toEqual([
      expect.objectContaining({
        actorId: null,
        target: `provider:saml:${id}`,
        reason,
        ...(detail ? { detail: expect.stringMatching(detail) } : {}),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(SAMLResponse.slice(0, 40));
    const [row] = await t.dataSource.query(
      "SELECT COUNT(*) AS n FROM users WHERE username = 'mallory'",
    );
    expect(Number(row.n)).toBe(0);
  }

  it('refuses a tampered assertion (changed after signing)', async () => {
    await expectRefused(
      await answered({ tamper: true }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /signature/i,
    );
  });

  it('refuses an assertion signed with a key kb does not trust', async () => {
    await expectRefused(
      await answered({ foreignKey: true }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /signature/i,
    );
  });

  it('refuses an expired assertion (beyond the clock skew)', async () => {
    await expectRefused(
      await answered({ shiftMs: -10 * 60_000 }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /expired/i,
    );
  });

  it('refuses an assertion not yet valid (issued in the future)', async () => {
    await expectRefused(
      await answered({ shiftMs: 5 * 60_000 }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /not yet valid/i,
    );
  });

  it('refuses an assertion for another service provider (wrong audience)', async () => {
    await expectRefused(
      await answered({ audience: 'https://other-sp.example/metadata' }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /audience/i,
    );
  });

  it('refuses an assertion for another assertion consumer (wrong recipient)', async () => {
    await expectRefused(
      await answered({ recipient: 'https://other-sp.example/acs' }),
      401,
      'sso_assertion_invalid',
      'assertion_invalid',
      /recipient/i,
    );
  });

  it('refuses an answer to a request kb never made (unknown InResponseTo)', async () => {
    await expectRefused(
      await answered({ inResponseTo: '_not-a-request-of-kb' }),
      400,
      'sso_state_invalid',
      'state_invalid',
    );
  });

  it('refuses a replayed assertion, on this instance and on another', async () => {
    const { url } = await begin(t);
    const form = await signInAtSamlIdp(url, 'eve', 'idp-password');
    await post(t, form).expect(303);
    await expectRefused(form.SAMLResponse, 400, 'sso_assertion_replayed', 'assertion_replayed');
    const peer = await createPeerApp(t);
    try {
      const again = await post(peer, form);
      expect(again.status).toBe(400);
      expect(again.body).toEqual(problem(400, 'sso_assertion_replayed'));
    } finally {
      await peer.close();
    }
  });

  it('refuses an IdP-initiated sign-in where it is off', async () => {
    await expectRefused(
      await idp.response({ account: 'mallory', audience: CORP_ENTITY, recipient: CORP_ACS }),
      403,
      'sso_idp_initiated_refused',
      'idp_initiated_refused',
    );
  });

  it('refuses a person the IdP does not let in', async () => {
    await expectRefused(
      await answered({}, 'blocked'),
      401,
      'sso_denied',
      'provider_refused',
      /RequestDenied/,
    );
  });

  it('accepts an IdP-initiated sign-in where enabled, once, landing inside kb', async () => {
    const unsolicited = () =>
      idp.response({
        account: 'pat',
        audience: PORTAL_ENTITY,
        recipient: PORTAL_ACS,
        encryptionCert: kbKeys.cert,
      });
    const first = await unsolicited();
    const res = await post(t, { SAMLResponse: first, RelayState: '/pages/from-portal' }, 'portal');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/from-portal`);
    expect((await sessionOf(res).get('/api/me').expect(200)).body.username).toBe('pat');
    const evil = await post(
      t,
      { SAMLResponse: await unsolicited(), RelayState: 'https://evil.example/phish' },
      'portal',
    );
    expect(evil.status).toBe(303);
    expect(evil.headers.location).toBe(`${PUBLIC_URL}/`);
    await expectRefused(
      first,
      400,
      'sso_assertion_replayed',
      'assertion_replayed',
      undefined,
      'portal',
    );
  });

  it.each([
    'https://evil.example/phish',
    '//evil.example/phish',
    '/\\evil.example/phish',
    'javascript:alert(1)',
  ])('lands inside kb when returnTo is %s', async (returnTo) => {
    const res = await signInAs('eve', t, returnTo);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/`);
  });

  it('finishes on another instance a sign-in started on this one', async () => {
    const peer = await createPeerApp(t);
    try {
      const { url } = await begin(t, '/pages/from-one');
      const form = await signInAtSamlIdp(url, 'quinn', 'idp-password');
      const res = await post(peer, form).expect(303);
      expect(res.headers.location).toBe(`${PUBLIC_URL}/pages/from-one`);
      const me = await sessionOf(res).get('/api/me').expect(200);
      expect(me.body).toMatchObject({ username: 'quinn', groups: ['ops'] });
    } finally {
      await peer.close();
    }
  });

  it('refuses to take over a kb account of the same name from another provider', async () => {
    // pat signed in through the portal above; the same name through corp is another identity.
    // It also carries pat's verified address, which is checked first: refused as in use
    // (SSO_LINK_BY_EMAIL off); a name taken by itself is sso_username_taken (auth-oidc spec).
    const sessions = await countSessions();
    const res = await signInAs('pat');
    expect(res.status).toBe(409);
    expect(res.body).toEqual(problem(409, 'sso_email_in_use'));
    await expectNobodySignedIn(res, sessions);
  });

  it('shows a refused sign-in to a browser on the sign-in screen', async () => {
    const res = await t
      .http()
      .post('/auth/saml/corp/acs')
      .set('Accept', 'text/html,application/xhtml+xml')
      .type('form')
      .send({ SAMLResponse: await answered({ tamper: true }) })
      .expect(303);
    expect(res.headers.location).toBe(`${PUBLIC_URL}/login?sso_error=sso_assertion_invalid`);
    expect(cookieValue(res.headers['set-cookie'], 'kb_session')).toBeUndefined();
  });

  it('answers clear problems for a post without a response and an unknown provider', async () => {
    const empty = await t.http().post('/auth/saml/corp/acs').type('form').send({ RelayState: '/' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(problem(400, 'sso_response_missing'));
    const json = await t.http().post('/auth/saml/corp/acs').send({ SAMLResponse: 'x' });
    expect(json.status).toBe(415);
    const garbage = await post(t, { SAMLResponse: 'bm90IHhtbA==' });
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual(problem(401, 'sso_assertion_invalid'));
    expect((await t.http().get('/auth/saml/nope/login').expect(404)).body).toEqual(
      problem(404, 'sso_provider_not_found'),
    );
    await t.http().get('/auth/saml/nope/metadata').expect(404);
  });
});
