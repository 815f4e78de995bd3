// A real SAML 2.0 identity provider for the tests, started by test/support/saml-idp.ts as a child
// process (so xmldom's DOM typings stay out of the TypeScript program). It reads kb's
// AuthnRequest (HTTP-Redirect binding), shows a login page, and answers with a Response whose
// assertion it signs with xml-crypto (RSA-SHA256, exclusive c14n) using a key and certificate
// openssl makes when it starts; for a service provider registered with an encryption
// certificate it encrypts the assertion with xml-encryption. The Response reaches kb through
// the browser, in an auto-submitting form to the assertion consumer (HTTP-POST binding), as
// Keycloak, Entra ID or Okta do. It prints {"base", "issuer", "entryPoint", "certPem",
// "certFile"} once it listens.
//
// argv[2] is JSON: {port, serviceProviders: [{entityId, acs, encryptionCert?}],
// accounts: {<id>: {password, name, email, groups, nameId?, blocked?}}}.
//
// Test controls (loopback only, never in production code):
//   PUT  /__test/accounts/<id>   JSON account   replaces or adds an account
//   POST /__test/response        JSON options   answers {SAMLResponse}: a Response built as the
//        options say (account, audience, recipient, inResponseTo?, shiftMs?, tamper?,
//        foreignKey?, encryptionCert?) — the bad-input tests change one part each
import { Buffer } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, URLSearchParams } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const { DOMParser } = require('@xmldom/xmldom');
const { SignedXml } = require('xml-crypto');
const { encrypt } = require('xml-encryption');

const setup = JSON.parse(process.argv[2] ?? '{}');
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';

function escapeXml(value) {
  return value.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c],
  );
}

const escapeHtml = escapeXml;

function newId() {
  return `_${randomBytes(16).toString('hex')}`;
}

function keyPair(dir, name) {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function page(title, body) {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`;
}

/** The auto-submitting form of the HTTP-POST binding. */
function postForm(form) {
  const relay =
    form.RelayState === undefined
      ? ''
      : `<input type="hidden" name="RelayState" value="${escapeHtml(form.RelayState)}">`;
  return page(
    'Signing you in',
    `<form method="post" action="${escapeHtml(form.action)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(form.SAMLResponse)}">${relay}<noscript><button type="submit">Continue</button></noscript></form><script>document.forms[0].submit()</script>`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'kb-saml-idp-'));
const signing = keyPair(dir, 'kb-test-idp');
const foreign = keyPair(dir, 'someone-else');
const accounts = new Map(Object.entries(setup.accounts));
const port = setup.port;
const base = `http://127.0.0.1:${port}`;
const issuer = `${base}/metadata`;
/** AuthnRequests waiting for their person to sign in, by a handle in the login form. */
const pending = new Map();

const time = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function response(options) {
  const account = accounts.get(options.account);
  if (!account) throw new Error(`no IdP account ${options.account}`);
  const now = Date.now() + (options.shiftMs ?? 0);
  const inResponseTo = options.inResponseTo
    ? ` InResponseTo="${escapeXml(options.inResponseTo)}"`
    : '';
  const responseId = newId();
  const status = (code) => `<samlp:Status><samlp:StatusCode Value="${code}"/></samlp:Status>`;
  const open = `<samlp:Response xmlns:samlp="${SAMLP}" xmlns:saml="${SAML}" ID="${responseId}" Version="2.0" IssueInstant="${time(now)}" Destination="${escapeXml(options.recipient)}"${inResponseTo}><saml:Issuer>${escapeXml(issuer)}</saml:Issuer>`;
  if (account.blocked) {
    return Buffer.from(
      `${open}<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Responder"><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:RequestDenied"/></samlp:StatusCode></samlp:Status></samlp:Response>`,
    ).toString('base64');
  }
  const attribute = (name, values) =>
    `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${values
      .map((v) => `<saml:AttributeValue>${escapeXml(v)}</saml:AttributeValue>`)
      .join('')}</saml:Attribute>`;
  const assertion =
    `<saml:Assertion xmlns:saml="${SAML}" ID="${newId()}" Version="2.0" IssueInstant="${time(now)}">` +
    `<saml:Issuer>${escapeXml(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${escapeXml(account.nameId ?? options.account)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${time(now + 5 * 60_000)}" Recipient="${escapeXml(options.recipient)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${time(now - 60_000)}" NotOnOrAfter="${time(now + 5 * 60_000)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${time(now)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attribute('username', [options.account])}${attribute('displayName', [account.name])}${attribute('email', [account.email])}${attribute('groups', account.groups)}</saml:AttributeStatement>` +
    `</saml:Assertion>`;
  const key = options.foreignKey ? foreign : signing;
  const signer = new SignedXml({
    privateKey: key.key,
    publicCert: key.cert,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
  });
  signer.computeSignature(assertion, {
    prefix: 'ds',
    location: {
      reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']",
      action: 'after',
    },
  });
  let signed = signer.getSignedXml();
  if (options.tamper) {
    // Claims a group the person is not in, after the IdP signed what it said.
    signed = signed.replace(
      '<saml:Attribute Name="groups" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">',
      '$&<saml:AttributeValue>idp-admins</saml:AttributeValue>',
    );
  }
  if (options.encryptionCert) {
    const encrypted = await new Promise((resolve, reject) =>
      encrypt(
        signed,
        {
          rsa_pub: options.encryptionCert,
          pem: options.encryptionCert,
          encryptionAlgorithm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
          keyEncryptionAlgorithm: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    signed = `<saml:EncryptedAssertion>${encrypted}</saml:EncryptedAssertion>`;
  }
  const xml = `${open}${status('urn:oasis:names:tc:SAML:2.0:status:Success')}${signed}</samlp:Response>`;
  return Buffer.from(xml).toString('base64');
}

function loginPage(handle, error) {
  return page(
    'Test SAML IdP',
    `<h1>Test SAML IdP</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}<form method="post" action="/login"><input type="hidden" name="request" value="${handle}"><p><label>IdP username <input name="username" autocomplete="username"></label></p><p><label>IdP password <input name="password" type="password" autocomplete="current-password"></label></p><button type="submit">Sign in at the IdP</button></form>`,
  );
}

const server = createServer((req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', base);
    const send = (status, html) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    const account = /^\/__test\/accounts\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'PUT' && account) {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      accounts.set(decodeURIComponent(account[1]), JSON.parse(Buffer.concat(chunks).toString()));
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/__test/response') {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const SAMLResponse = await response(JSON.parse(Buffer.concat(chunks).toString()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ SAMLResponse }));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/sso') {
      const encoded = url.searchParams.get('SAMLRequest');
      if (!encoded) return send(400, page('Error', '<p>No SAMLRequest.</p>'));
      const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
      const doc = new DOMParser().parseFromString(xml, 'text/xml');
      const request = doc.documentElement;
      const spIssuer = request.getElementsByTagNameNS(SAML, 'Issuer')[0]?.textContent ?? '';
      const acs = request.getAttribute('AssertionConsumerServiceURL') ?? '';
      const id = request.getAttribute('ID') ?? '';
      const sp = setup.serviceProviders.find((s) => s.entityId === spIssuer && s.acs === acs);
      if (request.localName !== 'AuthnRequest' || !id || !sp) {
        return send(400, page('Error', '<p>Unknown service provider.</p>'));
      }
      const handle = randomBytes(12).toString('hex');
      pending.set(handle, { id, sp, relayState: url.searchParams.get('RelayState') ?? undefined });
      return send(200, loginPage(handle));
    }
    if (req.method === 'POST' && url.pathname === '/login') {
      const form = await readBody(req);
      const handle = form.get('request') ?? '';
      const flow = pending.get(handle);
      if (!flow) return send(400, page('Error', '<p>Unknown request.</p>'));
      const username = form.get('username') ?? '';
      const account = accounts.get(username);
      if (!account || account.password !== form.get('password')) {
        return send(200, loginPage(handle, 'Wrong username or password.'));
      }
      pending.delete(handle);
      const SAMLResponse = await response({
        account: username,
        audience: flow.sp.entityId,
        recipient: flow.sp.acs,
        inResponseTo: flow.id,
        encryptionCert: flow.sp.encryptionCert,
      });
      return send(
        200,
        postForm({ action: flow.sp.acs, SAMLResponse, RelayState: flow.relayState }),
      );
    }
    send(404, page('Not found', '<p>Not found.</p>'));
  })().catch((error) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(error));
  });
});
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
});
process.stdout.write(
  `${JSON.stringify({ base, issuer, entryPoint: `${base}/sso`, certPem: signing.cert, certFile: signing.certFile })}\n`,
);
