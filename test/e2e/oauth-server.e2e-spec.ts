import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AddressInfo } from 'node:net';
import { Database } from '../../src/common/database/database';
import { createTestApp, TestApp } from '../support/test-app';
import { CookieJar, consoleCall, form, navigate, pkce } from '../support/oauth-flow';
import { createPage } from '../support/pages';
import { problem } from '../support/problems';
import { Client, signedIn } from '../support/users';

const REDIRECT = 'http://127.0.0.1:9/callback';

type Json = Record<string, unknown>;

describe('kb as an OAuth 2.1 authorization server', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => t.close());
  beforeEach(() => t.reset());

  async function getJson(path: string, bearer?: string): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${base}${path}`, {
      headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  async function register(body: Json = {}): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Notes Assistant',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...body,
      }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  async function newClient(): Promise<string> {
    const { status, body } = await register();
    expect(status).toBe(201);
    return String(body.client_id);
  }

  function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}) {
    return `${base}/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'read write',
      state: 'st4te',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${base}/mcp`,
      ...extra,
    })}`;
  }

  /** Starts an authorization in `jar`'s browser; answers the consent screen's request id. */
  async function startAt(jar: CookieJar, url: string): Promise<string> {
    const start = await navigate(jar, url);
    expect(start.status).toBe(303);
    const consent = start.headers.get('location')!;
    expect(consent).toMatch(/^\/consent\/[\w-]+$/);
    return consent.split('/').pop()!;
  }

  /** Follows kb's redirects after the decision until the browser is sent back to the app. */
  async function backToApp(jar: CookieJar, redirectTo: string): Promise<URL> {
    let res = await navigate(jar, redirectTo);
    while (res.status === 303 && !res.headers.get('location')!.startsWith(REDIRECT)) {
      res = await navigate(jar, new URL(res.headers.get('location')!, base).href);
    }
    expect(res.status).toBe(303);
    return new URL(res.headers.get('location')!);
  }

  /** The person approves in the console; answers the code the app receives. */
  async function approve(person: Client, url: string, paths?: string[]): Promise<string> {
    const jar = new CookieJar(person.auth.cookie);
    const uid = await startAt(jar, url);
    const decided = await consoleCall(jar, base, 'POST', `/api/oauth/requests/${uid}`, {
      decision: 'approve',
      ...(paths ? { paths } : {}),
    });
    expect(decided.status).toBe(200);
    const back = await backToApp(
      jar,
      ((await decided.json()) as { redirectTo: string }).redirectTo,
    );
    expect(back.searchParams.get('state')).toBe('st4te');
    return back.searchParams.get('code')!;
  }

  async function exchange(clientId: string, code: string, verifier: string) {
    const res = await form(`${base}/oauth/token`, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  /** The whole flow as a browser and an app do it; answers the token response. */
  async function authorize(
    person: Client,
    clientId: string,
    scope = 'read write',
    paths?: string[],
  ) {
    const { verifier, challenge } = pkce();
    const code = await approve(person, authorizeUrl(clientId, challenge, { scope }), paths);
    const token = await exchange(clientId, code, verifier);
    expect(token.status).toBe(200);
    return token.body;
  }

  async function refresh(clientId: string, refreshToken: string) {
    const res = await form(`${base}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  }

  async function oauthRows(clientId: string): Promise<string[]> {
    const rows = await t
      .get(Database)
      .sql()
      .all('SELECT model FROM oauth_records WHERE client_id = ? ORDER BY model', [clientId]);
    return rows.map((r) => String(r.model));
  }

  describe('metadata', () => {
    it('serves the authorization server metadata (RFC 8414) with PKCE, DCR and revocation', async () => {
      const { status, body } = await getJson('/.well-known/oauth-authorization-server');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      });
      expect(body.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token']),
      );
      expect(body.token_endpoint_auth_methods_supported).toContain('none');
    });

    it('serves protected resource metadata (RFC 9728) for the site and for /mcp', async () => {
      expect(await getJson('/.well-known/oauth-protected-resource')).toEqual({
        status: 200,
        body: {
          resource: `${base}/`,
          authorization_servers: [base],
          scopes_supported: ['read', 'write', 'admin'],
          bearer_methods_supported: ['header'],
          resource_name: 'kb',
          resource_documentation: `${base}/api/docs`,
        },
      });
      const mcp = await getJson('/.well-known/oauth-protected-resource/mcp');
      expect(mcp.body).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    });

    it('names the resource metadata in the 401 challenge of /mcp', async () => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="kb", resource_metadata="${base}/.well-known/oauth-protected-resource"`,
      );
      // Elsewhere the challenge stays as it was.
      const api = await fetch(`${base}/api/me`);
      expect(api.headers.get('www-authenticate')).toBe('Bearer realm="kb"');
    });
  });

  describe('dynamic client registration', () => {
    it('registers a public client as MCP clients do, without a secret', async () => {
      const { status, body } = await register();
      expect(status).toBe(201);
      expect(body).toMatchObject({
        client_name: 'Notes Assistant',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
      });
      expect(body.client_secret).toBeUndefined();
      const rows = await oauthRows(String(body.client_id));
      expect(rows).toEqual(['Client', 'RegistrationAccessToken']);
    });

    it('refuses a registration whose redirect URI is not a URL', async () => {
      const { status, body } = await register({ redirect_uris: ['not a url'] });
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_redirect_uri');
    });
  });

  describe('authorization code with PKCE', () => {
    it('runs end to end, and the token acts as the person on the REST API and /mcp', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId);
      expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'read write', expires_in: 3600 });
      expect(tokens.refresh_token).toEqual(expect.any(String));
      expect(await getJson('/api/me', tokens.access_token)).toMatchObject({
        status: 200,
        body: { username: editor.user!.username, role: 'editor' },
      });
      // A page written with the token is the person's.
      const created = await fetch(`${base}/api/pages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ slug: 'oauth/made', title: 'Made by an app', content: 'x' }),
      });
      expect(created.status).toBe(201);
      expect(((await created.json()) as Json).updatedBy).toBe(editor.user!.username);
      // Stored under their hash: the table never holds a usable token.
      const ids = await t.get(Database).sql().all('SELECT id FROM oauth_records', []);
      expect(ids.map((r) => r.id)).not.toContain(tokens.access_token);
      expect(ids.map((r) => r.id)).not.toContain(tokens.refresh_token);
    });

    it('shows the app and the scopes to the person, capped by their role', async () => {
      const reader = await signedIn(t, 'reader');
      const clientId = await newClient();
      const jar = new CookieJar(reader.auth.cookie);
      const { challenge } = pkce();
      const uid = await startAt(jar, authorizeUrl(clientId, challenge, { scope: 'read write' }));
      const res = await consoleCall(jar, base, 'GET', `/api/oauth/requests/${uid}`);
      expect(await res.json()).toEqual({
        uid,
        client: { id: clientId, name: 'Notes Assistant', uri: null },
        redirectUri: REDIRECT,
        scopes: [
          { name: 'read', description: expect.any(String), granted: true },
          { name: 'write', description: expect.any(String), granted: false },
        ],
        role: 'reader',
      });
    });

    it('gives a reader who approves "write" a token that only reads', async () => {
      const reader = await signedIn(t, 'reader');
      const clientId = await newClient();
      const tokens = await authorize(reader, clientId, 'read write');
      expect(tokens.scope).toBe('read');
      expect((await getJson('/api/me', tokens.access_token)).body.role).toBe('reader');
    });

    it('acts with the scope granted, not the person’s whole role', async () => {
      const admin = await signedIn(t, 'admin');
      const clientId = await newClient();
      const tokens = await authorize(admin, clientId, 'read');
      expect((await getJson('/api/me', tokens.access_token)).body.role).toBe('reader');
      const res = await fetch(`${base}/api/pages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ slug: 'no', title: 'No', content: 'x' }),
      });
      expect(res.status).toBe(403);
    });

    it('limits a grant to the slug patterns the person chose, as a scoped token is', async () => {
      const editor = await signedIn(t, 'editor');
      await editor
        .post('/api/pages')
        .send({ slug: 'oa-docs/a', title: 'A', content: 'a' })
        .expect(201);
      await editor
        .post('/api/pages')
        .send({ slug: 'oa-other/b', title: 'B', content: 'b' })
        .expect(201);
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId, 'read write', ['oa-docs/**']);
      expect((await getJson('/api/pages/oa-docs/a', tokens.access_token)).status).toBe(200);
      expect((await getJson('/api/pages/oa-other/b', tokens.access_token)).status).toBe(404);
      const write = (slug: string) =>
        fetch(`${base}/api/pages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens.access_token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ slug, title: 'New', content: 'x' }),
        });
      expect((await write('oa-docs/new')).status).toBe(201);
      const outside = await write('oa-other/new');
      expect(outside.status).toBe(403);
      expect(((await outside.json()) as { code: string }).code).toBe('outside_token_paths');
      const grants = await editor.get('/api/oauth/grants').expect(200);
      expect(grants.body.items).toContainEqual(
        expect.objectContaining({ scope: { role: 'editor', paths: ['oa-docs/**'] } }),
      );

      // A pattern that is not one answers 422 and grants nothing.
      const jar = new CookieJar(editor.auth.cookie);
      const uid = await startAt(jar, authorizeUrl(clientId, pkce().challenge, { scope: 'read' }));
      const bad = await consoleCall(jar, base, 'POST', `/api/oauth/requests/${uid}`, {
        decision: 'approve',
        paths: ['../oa-other'],
      });
      expect(bad.status).toBe(422);
    });

    it('refuses a code without its PKCE verifier, or with another one', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const { challenge } = pkce();
      const code = await approve(editor, authorizeUrl(clientId, challenge));
      const wrong = await exchange(clientId, code, pkce().verifier);
      expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    });

    it('refuses an authorization request without PKCE', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const jar = new CookieJar(editor.auth.cookie);
      const url = new URL(authorizeUrl(clientId, 'x'));
      url.searchParams.delete('code_challenge');
      url.searchParams.delete('code_challenge_method');
      const res = await navigate(jar, url.href);
      const back = new URL(res.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe('invalid_request');
    });

    it('never redirects to a redirect URI the client did not register', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const jar = new CookieJar(editor.auth.cookie);
      const res = await navigate(
        jar,
        authorizeUrl(clientId, pkce().challenge, { redirect_uri: 'https://evil.example/cb' }),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri');
    });

    it('binds the consent to the browser that started it', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const uid = await startAt(
        new CookieJar(editor.auth.cookie),
        authorizeUrl(clientId, pkce().challenge),
      );
      // The same person in another browser (no interaction cookie) cannot approve it.
      const other = new CookieJar(editor.auth.cookie);
      const res = await consoleCall(other, base, 'POST', `/api/oauth/requests/${uid}`, {
        decision: 'approve',
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(
        problem(404, 'oauth_request_not_found', {
          detail:
            'This authorization request is unknown, expired or was started in another browser. Start again from the app.',
          instance: `/api/oauth/requests/${uid}`,
        }),
      );
    });

    it('needs a signed-in person at the consent API', async () => {
      const res = await fetch(`${base}/api/oauth/requests/abc`);
      expect(res.status).toBe(401);
    });

    it('sends access_denied back to the app when the person denies', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const jar = new CookieJar(editor.auth.cookie);
      const uid = await startAt(jar, authorizeUrl(clientId, pkce().challenge));
      const decided = await consoleCall(jar, base, 'POST', `/api/oauth/requests/${uid}`, {
        decision: 'deny',
      });
      const back = await backToApp(
        jar,
        ((await decided.json()) as { redirectTo: string }).redirectTo,
      );
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('code')).toBeNull();
      expect(await oauthRows(clientId)).not.toContain('Grant');
    });
  });

  describe('refresh tokens', () => {
    it('rotate on every use; a replayed one is refused and ends the grant', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const first = await authorize(editor, clientId);
      const second = await refresh(clientId, first.refresh_token);
      expect(second.status).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect(second.body.access_token).not.toBe(first.access_token);
      expect((await getJson('/api/me', second.body.access_token)).status).toBe(200);

      const replay = await refresh(clientId, first.refresh_token);
      expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // Reuse detection: everything issued under the grant ends, the newest tokens too.
      expect((await refresh(clientId, second.body.refresh_token)).status).toBe(400);
      expect((await getJson('/api/me', second.body.access_token)).status).toBe(401);
      expect(await oauthRows(clientId)).not.toContain('Grant');
    });
  });

  describe('revocation (RFC 7009)', () => {
    it('ends an access token at once', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId);
      const res = await form(`${base}/oauth/revoke`, {
        token: tokens.access_token,
        client_id: clientId,
      });
      expect(res.status).toBe(200);
      expect(await getJson('/api/me', tokens.access_token)).toMatchObject({
        status: 401,
        body: { code: 'invalid_token' },
      });
    });

    it('ends a refresh token', async () => {
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId);
      const res = await form(`${base}/oauth/revoke`, {
        token: tokens.refresh_token,
        token_type_hint: 'refresh_token',
        client_id: clientId,
      });
      expect(res.status).toBe(200);
      expect((await refresh(clientId, tokens.refresh_token)).status).toBe(400);
    });
  });

  describe('the apps a person authorised', () => {
    it('lists them on the account and revokes one with all its tokens', async () => {
      const editor = await signedIn(t, 'editor');
      const other = await signedIn(t, 'editor');
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId);
      const list = await editor.get('/api/oauth/grants').expect(200);
      expect(list.body).toEqual({
        items: [
          {
            id: expect.any(String),
            client: { id: clientId, name: 'Notes Assistant', uri: null },
            scope: { role: 'editor', paths: null },
            username: editor.user!.username,
            createdAt: expect.any(String),
            expiresAt: expect.any(String),
          },
        ],
        nextCursor: null,
      });
      expect((await other.get('/api/oauth/grants').expect(200)).body.items).toEqual([]);
      const grantId = String(list.body.items[0].id);
      // Not another person's to revoke; not an app's to see.
      await other.delete(`/api/oauth/grants/${grantId}`).expect(404);
      expect((await getJson('/api/oauth/grants', tokens.access_token)).body.code).toBe(
        'session_required',
      );

      await editor.delete(`/api/oauth/grants/${grantId}`).expect(204);
      expect((await getJson('/api/me', tokens.access_token)).status).toBe(401);
      expect((await refresh(clientId, tokens.refresh_token)).status).toBe(400);
      expect((await editor.get('/api/oauth/grants').expect(200)).body.items).toEqual([]);
      expect(await oauthRows(clientId)).toEqual(['Client', 'RegistrationAccessToken']);
    });

    it('lets administrators see every client and ban one', async () => {
      const admin = await signedIn(t, 'admin');
      const editor = await signedIn(t, 'editor');
      const clientId = await newClient();
      const tokens = await authorize(editor, clientId);
      await editor.get('/api/oauth/clients').expect(403);
      const list = await admin.get('/api/oauth/clients').expect(200);
      expect(list.body.items).toEqual([
        {
          id: clientId,
          name: 'Notes Assistant',
          uri: null,
          redirectUris: [REDIRECT],
          createdAt: expect.any(String),
          bannedAt: null,
          grants: [expect.objectContaining({ username: editor.user!.username })],
        },
      ]);
      await editor.post(`/api/oauth/clients/${clientId}/ban`).expect(403);
      await admin.post('/api/oauth/clients/nope/ban').expect(404);
      await admin.post(`/api/oauth/clients/${clientId}/ban`).expect(204);

      expect((await getJson('/api/me', tokens.access_token)).status).toBe(401);
      // The client is unknown now: its refresh token is refused with the client.
      expect(await refresh(clientId, tokens.refresh_token)).toMatchObject({
        status: 401,
        body: { error: 'invalid_client' },
      });
      expect(await oauthRows(clientId)).toEqual(['Client']);
      const after = await admin.get('/api/oauth/clients').expect(200);
      expect(after.body.items[0]).toMatchObject({ bannedAt: expect.any(String), grants: [] });
      // A banned client cannot start an authorization.
      const res = await navigate(new CookieJar(editor.auth.cookie), authorizeUrl(clientId, 'x'));
      expect(res.status).toBe(400);
    });
  });

  describe('an MCP client (the official SDK) connecting with OAuth', () => {
    class TestOAuthProvider implements OAuthClientProvider {
      info?: OAuthClientInformationMixed;
      saved?: OAuthTokens;
      verifier = '';
      authorizationUrl?: URL;
      get redirectUrl() {
        return REDIRECT;
      }
      get clientMetadata() {
        return {
          client_name: 'SDK client',
          redirect_uris: [REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      }
      clientInformation() {
        return this.info;
      }
      saveClientInformation(info: OAuthClientInformationMixed) {
        this.info = info;
      }
      tokens() {
        return this.saved;
      }
      saveTokens(tokens: OAuthTokens) {
        this.saved = tokens;
      }
      redirectToAuthorization(url: URL) {
        this.authorizationUrl = url;
      }
      saveCodeVerifier(verifier: string) {
        this.verifier = verifier;
      }
      codeVerifier() {
        return this.verifier;
      }
    }

    it('discovers kb, registers, gets consent and calls tools as the person', async () => {
      const editor = await signedIn(t, 'editor');
      await createPage(editor, 'guide', { title: 'Guide', content: 'Hello' });
      const provider = new TestOAuthProvider();
      const url = new URL(`${base}/mcp`);
      const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
      const mcp = new McpClient({ name: 'kb-e2e', version: '1' });
      await expect(mcp.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.info).toMatchObject({ client_id: expect.any(String) });
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${base}/oauth/authorize`);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

      const jar = new CookieJar(editor.auth.cookie);
      const uid = await startAt(jar, authorizationUrl.href);
      const decided = await consoleCall(jar, base, 'POST', `/api/oauth/requests/${uid}`, {
        decision: 'approve',
      });
      const back = await backToApp(
        jar,
        ((await decided.json()) as { redirectTo: string }).redirectTo,
      );
      await first.finishAuth(back.searchParams.get('code')!);
      expect(provider.saved?.access_token).toEqual(expect.any(String));

      const connected = new McpClient({ name: 'kb-e2e', version: '1' });
      await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
      try {
        const read = await connected.callTool({ name: 'read_page', arguments: { slug: 'guide' } });
        expect(read.isError).toBeFalsy();
        expect(JSON.stringify(read.structuredContent)).toContain('Guide');
      } finally {
        await connected.close();
      }
    });
  });
});

describe('OAUTH_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ OAUTH_ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 for the endpoints and the metadata, and /mcp challenges without the hint', async () => {
    await t.http().get('/.well-known/oauth-authorization-server').expect(404);
    await t.http().get('/.well-known/oauth-protected-resource').expect(404);
    await t
      .http()
      .post('/oauth/register')
      .send({ redirect_uris: [REDIRECT] })
      .expect(404);
    await t.http().get('/oauth/authorize').expect(404);
    const res = await t.http().post('/mcp').send({}).expect(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="kb"');
  });
});
