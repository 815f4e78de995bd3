import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

function failure(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('loadConfig accepted ' + JSON.stringify(env));
}

describe('SAML configuration', () => {
  let dir: string;
  let cert: string;
  let key: string;
  let base: Record<string, string>;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kb-saml-config-'));
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=idp'].concat([
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    key = readFileSync(join(dir, 'key.pem'), 'utf8');
    base = {
      KB_PUBLIC_URL: 'https://wiki.example.com',
      SAML_PROVIDERS: 'Okta',
      SAML_OKTA_ENTRY_POINT: 'https://example.okta.com/app/kb/sso/saml',
      SAML_OKTA_IDP_ISSUER: 'http://www.okta.com/exk1',
      SAML_OKTA_IDP_CERT: cert,
    };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no providers unless SAML_PROVIDERS names some', () => {
    expect(loadConfig({}).saml.providers).toEqual([]);
  });

  it('reads a provider with its defaults', () => {
    expect(loadConfig(base).saml.providers).toEqual([
      {
        id: 'okta',
        name: 'Okta',
        entryPoint: 'https://example.okta.com/app/kb/sso/saml',
        idpIssuer: 'http://www.okta.com/exk1',
        idpCerts: [cert.trim()],
        spEntityId: 'https://wiki.example.com/auth/saml/okta/metadata',
        idpInitiated: false,
        usernameAttribute: 'nameID',
        displayNameAttribute: 'displayName',
        emailAttribute: 'email',
        groupsAttribute: 'groups',
        decryption: undefined,
        roleMap: [],
        groupMap: [],
      },
    ]);
  });

  it('takes the certificate from a file or as bare base64, and kb’s own key pair', () => {
    const bare = cert.replace(/-----[A-Z ]+-----|\s/g, '');
    for (const value of [join(dir, 'cert.pem'), bare]) {
      const [p] = loadConfig({ ...base, SAML_OKTA_IDP_CERT: value }).saml.providers;
      expect(p.idpCerts[0].replace(/\s/g, '')).toBe(cert.replace(/\s/g, ''));
    }
    const [p] = loadConfig({
      ...base,
      SAML_OKTA_SP_PRIVATE_KEY: join(dir, 'key.pem'),
      SAML_OKTA_SP_CERT: cert,
      SAML_OKTA_IDP_INITIATED: 'true',
      SAML_OKTA_ROLE_MAP: 'kb-admins=admin',
      SAML_OKTA_GROUP_MAP: 'kb-eng=Engineering',
    }).saml.providers;
    expect(p.decryption).toEqual({ privateKey: key, cert: cert.trim() });
    expect(p.idpInitiated).toBe(true);
    expect(p.roleMap).toEqual([{ idpGroup: 'kb-admins', role: 'admin' }]);
    expect(p.groupMap).toEqual([{ idpGroup: 'kb-eng', kbGroup: 'engineering' }]);
  });

  it.each([
    [{ KB_PUBLIC_URL: '' }, 'KB_PUBLIC_URL is required with SAML_PROVIDERS'],
    [{ SAML_OKTA_ENTRY_POINT: '' }, 'SAML_OKTA_ENTRY_POINT is required'],
    [
      { SAML_OKTA_ENTRY_POINT: 'http://idp.example.com/sso' },
      'SAML_OKTA_ENTRY_POINT must use https',
    ],
    [{ SAML_OKTA_IDP_ISSUER: '' }, 'SAML_OKTA_IDP_ISSUER is required'],
    [{ SAML_OKTA_IDP_CERT: '' }, 'SAML_OKTA_IDP_CERT is required'],
    [{ SAML_OKTA_IDP_CERT: '/nonexistent/idp.pem' }, 'cannot read "/nonexistent/idp.pem"'],
    [
      { SAML_OKTA_IDP_CERT: '-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----' },
      'cannot be read',
    ],
    [
      { SAML_OKTA_ROLE_MAP: 'kb-admins=owner' },
      'SAML_OKTA_ROLE_MAP must map to admin, editor or reader',
    ],
    [{ SAML_OKTA_IDP_INITIATED: 'yes' }, 'SAML_OKTA_IDP_INITIATED must be true or false'],
    [{ SAML_OKTA_SP_CERT: 'CERT' }, 'SAML_OKTA_SP_PRIVATE_KEY is required with SAML_OKTA_SP_CERT'],
    [{ SAML_PROVIDERS: 'okta,OKTA' }, 'SAML_PROVIDERS lists "OKTA" twice'],
  ] as [Record<string, string>, string][])('refuses %j', (change, message) => {
    const env: Record<string, string> = { ...base, ...change };
    if (change.SAML_OKTA_SP_CERT) env.SAML_OKTA_SP_CERT = cert;
    expect(failure(env)).toContain(message);
  });
});
