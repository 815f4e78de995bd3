import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from './ports';

/**
 * The test SAML identity provider (test/support/saml-idp.mjs: xml-crypto signs, xml-encryption
 * encrypts, openssl makes its key) in a child process on a port from freePort().
 */

export interface SamlIdpAccount {
  password: string;
  name: string;
  email: string;
  groups: string[];
  /** The NameID (default: the account id). */
  nameId?: string;
  /** The IdP refuses this person (a Response with status RequestDenied, no assertion). */
  blocked?: boolean;
}

/** A service provider the IdP knows: its entity id, assertion consumer and encryption cert. */
export interface SamlIdpServiceProvider {
  entityId: string;
  acs: string;
  /** PEM: assertions for this SP are encrypted to it. */
  encryptionCert?: string;
}

/** How to build one Response (tests of bad input change one part each). */
export interface ResponseOptions {
  account: string;
  /** The SP entity id the assertion is for (its audience). */
  audience: string;
  /** The SubjectConfirmationData Recipient (and the Response's Destination). */
  recipient: string;
  /** Absent: an unsolicited (IdP-initiated) Response. */
  inResponseTo?: string;
  /** Shift of every time in the assertion (negative: issued in the past). */
  shiftMs?: number;
  /** Change the signed assertion after signing (it then fails verification). */
  tamper?: boolean;
  /** Sign with another key than the one kb trusts. */
  foreignKey?: boolean;
  encryptionCert?: string;
}

export interface SamlPostForm {
  action: string;
  SAMLResponse: string;
  RelayState?: string;
}

export interface TestSamlIdp {
  /** The IdP's entity id (the Issuer of its assertions). */
  issuer: string;
  /** The single sign-on URL (HTTP-Redirect binding). */
  entryPoint: string;
  certPem: string;
  /** The certificate as a file (SAML_<ID>_IDP_CERT may name a file). */
  certFile: string;
  setAccount(id: string, account: SamlIdpAccount): Promise<void>;
  /** A signed Response (base64), built as the options say. */
  response(options: ResponseOptions): Promise<string>;
  close(): Promise<void>;
}

/** A key and self-signed certificate made by openssl (kb's own key for encrypted assertions). */
export function makeKeyPair(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kb-saml-keys-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2'].concat([
        '-subj',
        `/CN=${name}`,
        '-keyout',
        key,
        '-out',
        cert,
      ]),
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads the HTTP-POST form a page of the IdP answers with. */
export function parsePostForm(html: string): SamlPostForm {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const response = /name="SAMLResponse" value="([^"]+)"/.exec(html)?.[1];
  const relay = /name="RelayState" value="([^"]*)"/.exec(html)?.[1];
  if (!action || !response) throw new Error(`no SAML post form in: ${html.slice(0, 300)}`);
  const unescape = (v: string) =>
    v.replace(
      /&(lt|gt|amp|quot|apos);/g,
      (_m, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!,
    );
  return {
    action: unescape(action),
    SAMLResponse: unescape(response),
    RelayState: relay === undefined ? undefined : unescape(relay),
  };
}

export async function startSamlIdp(setup: {
  serviceProviders: SamlIdpServiceProvider[];
  accounts: Record<string, SamlIdpAccount>;
}): Promise<TestSamlIdp> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(__dirname, 'saml-idp.mjs'), JSON.stringify({ ...setup, port })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const started = await new Promise<{
    base: string;
    issuer: string;
    entryPoint: string;
    certPem: string;
    certFile: string;
  }>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    child.once('exit', (code) => reject(new Error(`the test SAML IdP exited with ${code}`)));
  });
  const control = async (path: string, method: string, body: unknown): Promise<Response> => {
    const res = await fetch(`${started.base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`SAML IdP control ${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  return {
    issuer: started.issuer,
    entryPoint: started.entryPoint,
    certPem: started.certPem,
    certFile: started.certFile,
    setAccount: async (id, account) => {
      await control(`/__test/accounts/${encodeURIComponent(id)}`, 'PUT', account);
    },
    response: async (options) =>
      (
        (await (await control('/__test/response', 'POST', options)).json()) as {
          SAMLResponse: string;
        }
      ).SAMLResponse,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Signs in at the IdP as a browser would, without one: follows kb's redirect to the IdP's login
 * page, posts the person's password, and answers the form the IdP posts to kb's assertion consumer.
 */
export async function signInAtSamlIdp(
  authorizeUrl: string,
  username: string,
  password: string,
): Promise<SamlPostForm> {
  const login = await fetch(authorizeUrl);
  const html = await login.text();
  if (login.status !== 200) throw new Error(`IdP login page: ${login.status} ${html}`);
  const handle = /name="request" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error('no login form at the IdP');
  const answer = await fetch(new URL('/login', authorizeUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request: handle, username, password }).toString(),
  });
  return parsePostForm(await answer.text());
}
