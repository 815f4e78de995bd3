// A real OpenID provider for the tests: oidc-provider (a certified implementation) on a loopback
// port, with test accounts that carry a `groups` claim. Started by test/support/oidc-idp.ts as a
// child process (oidc-provider is an ES module); it prints {"issuer": ...} once it listens.
//
// argv[2] is JSON: {clients: [{client_id, client_secret, redirect_uris, post_logout_redirect_uris}],
// accounts: {<id>: {password, name, email, groups, blocked?}}}.
//
// Test controls (loopback only, never in production code):
//   PUT  /__test/accounts/<id>   JSON account  replaces or adds an account (e.g. new groups)
//   POST /__test/tamper          JSON {mode}   the next token response carries a bad ID token:
//        "signature" (claims changed after signing), "expired", "audience" (another client's)
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import process from 'node:process';
import { URL, URLSearchParams } from 'node:url';
import Provider from 'oidc-provider';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';

const setup = JSON.parse(process.argv[2] ?? '{}');
const accounts = new Map(Object.entries(setup.accounts ?? {}));
let tamper = null;

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: 'kb-test-key', alg: 'RS256', use: 'sig' };

const server = createServer();
await new Promise((done) => server.listen(0, '127.0.0.1', done));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: setup.clients ?? [],
  jwks: { keys: [jwk] },
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username', 'groups'],
    email: ['email', 'email_verified'],
  },
  // The ID token carries the profile claims too (as Keycloak's and Entra ID's do).
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  pkce: { required: () => true },
  cookies: { keys: ['kb-test-cookie-key'] },
  async findAccount(_ctx, id) {
    const account = accounts.get(id);
    if (!account) return undefined;
    return {
      accountId: id,
      claims: () => ({
        sub: id,
        preferred_username: account.username ?? id,
        name: account.name,
        email: account.email,
        email_verified: account.emailVerified ?? true,
        groups: account.groups ?? [],
      }),
    };
  },
});
provider.proxy = false;

// A bad ID token in the next token response, signed with the provider's own key unless the
// mode is a broken signature.
provider.use(async (ctx, next) => {
  await next();
  if (ctx.path !== '/token' || ctx.status !== 200 || !tamper || !ctx.body?.id_token) return;
  const mode = tamper;
  tamper = null;
  const token = ctx.body.id_token;
  const claims = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  if (mode === 'signature') {
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, groups: ['idp-admins'] })).toString(
      'base64url',
    );
    ctx.body = { ...ctx.body, id_token: `${header}.${forged}.${signature}` };
    return;
  }
  const changed =
    mode === 'expired'
      ? { ...claims, iat: now - 7200, exp: now - 3600 }
      : { ...claims, aud: 'another-client' };
  const signed = await new SignJWT(changed)
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' })
    .sign(privateKey);
  ctx.body = { ...ctx.body, id_token: signed };
});

function readBody(req) {
  return new Promise((done, fail) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function escape(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const loginPage = (uid, message) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head>
<body><main><h1>Test IdP</h1>${message ? `<p role="alert">${escape(message)}</p>` : ''}
<form method="post" action="/interaction/${escape(uid)}/login">
<label>Username <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" required></label>
<button type="submit">Sign in to the IdP</button>
</form></main></body></html>`;

const callback = provider.callback();
server.on('request', async (req, res) => {
  try {
    const url = new URL(req.url, issuer);
    const account = /^\/__test\/accounts\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'PUT' && account) {
      accounts.set(decodeURIComponent(account[1]), JSON.parse(await readBody(req)));
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/__test/tamper') {
      tamper = JSON.parse(await readBody(req)).mode;
      res.writeHead(204).end();
      return;
    }
    // The login step is this provider's own page checking the password; consent stays the
    // provider's development page ("Continue").
    const interaction = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (interaction) {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login' && req.method === 'GET' && !interaction[2]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(loginPage(details.uid));
        return;
      }
      if (details.prompt.name === 'login' && req.method === 'POST' && interaction[2]) {
        const form = new URLSearchParams(await readBody(req));
        const id = form.get('username') ?? '';
        const found = accounts.get(id);
        if (!found || found.password !== form.get('password')) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(loginPage(details.uid, 'Wrong username or password.'));
          return;
        }
        // A person the provider no longer lets in: the provider says so to the client.
        const result = found.blocked
          ? { error: 'access_denied', error_description: 'This account may not sign in.' }
          : { login: { accountId: id } };
        await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
        return;
      }
    }
    callback(req, res);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  }
});

process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
