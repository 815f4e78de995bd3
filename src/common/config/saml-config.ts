import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bool, ConfigError, Env, str } from './env-values';
import { providerIds, providerUrl, ssoMappings, SsoMappingsConfig } from './sso-mappings-config';

/** One SAML 2.0 identity provider (SAML_PROVIDERS, SAML_<ID>_*); see docs/sso.md. */
export interface SamlProviderConfig extends SsoMappingsConfig {
  /** Lowercase id from SAML_PROVIDERS: kb's addresses are `<KB_PUBLIC_URL>/auth/saml/<id>/…`. */
  id: string;
  /** The button text: "Sign in with <name>". */
  name: string;
  /** The IdP's single sign-on address (HTTP-Redirect binding). */
  entryPoint: string;
  /** The IdP's entity id: the `Issuer` every assertion must carry. */
  idpIssuer: string;
  /** The IdP's signing certificates (PEM; several during a key rollover). */
  idpCerts: string[];
  /** kb's entity id at the IdP (the audience of its assertions). */
  spEntityId: string;
  /** Responses no AuthnRequest of kb asked for are accepted (SAML_<ID>_IDP_INITIATED). */
  idpInitiated: boolean;
  /** `nameID` (the subject's NameID) or an attribute name. */
  usernameAttribute: string;
  displayNameAttribute: string;
  emailAttribute: string;
  groupsAttribute: string;
  /** kb's key and certificate for encrypted assertions (both or neither). */
  decryption?: { privateKey: string; cert: string };
}

const ATTRIBUTE_PATTERN = /^[A-Za-z0-9_.:/#-]{1,256}$/;
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/** PEM text, a file holding it, or (as Entra ID and Okta show a certificate) bare base64. */
function pemValue(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (raw.includes('-----BEGIN')) return raw.replace(/\\n/g, '\n');
  if (/^[A-Za-z0-9+/=\s]{200,}$/.test(raw)) {
    const body = raw.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n');
    return `-----BEGIN CERTIFICATE-----\n${body.trim()}\n-----END CERTIFICATE-----`;
  }
  try {
    return readFileSync(raw, 'utf8');
  } catch (error) {
    throw new ConfigError(
      name,
      `must be PEM text or a readable file holding it; cannot read "${raw}" (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
}

function certificates(env: Env, name: string, required: boolean): string[] {
  const text = pemValue(env, name);
  if (text === undefined) {
    if (required) throw new ConfigError(name, "is required (the IdP's signing certificate, PEM)");
    return [];
  }
  const blocks = (text.match(PEM_BLOCK) ?? []).filter((b) => b.includes('CERTIFICATE-----'));
  if (blocks.length === 0) throw new ConfigError(name, 'holds no PEM certificate');
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      throw new ConfigError(name, 'holds a certificate that cannot be read');
    }
  }
  return blocks;
}

function attribute(env: Env, name: string, fallback: string): string {
  const value = str(env, name) ?? fallback;
  if (!ATTRIBUTE_PATTERN.test(value)) {
    throw new ConfigError(name, `must be an attribute name, got "${value}"`);
  }
  return value;
}

function decryption(env: Env, prefix: string): SamlProviderConfig['decryption'] {
  const keyName = `${prefix}SP_PRIVATE_KEY`;
  const certName = `${prefix}SP_CERT`;
  const key = pemValue(env, keyName);
  const [cert] = certificates(env, certName, false);
  if (key === undefined && cert === undefined) return undefined;
  if (key === undefined || cert === undefined) {
    throw new ConfigError(
      key === undefined ? keyName : certName,
      `is required with ${key === undefined ? certName : keyName} (encrypted assertions need both)`,
    );
  }
  try {
    createPrivateKey(key);
  } catch {
    throw new ConfigError(keyName, 'holds no private key that can be read (PEM, unencrypted)');
  }
  return { privateKey: key, cert };
}

function provider(env: Env, id: string, publicUrl: string): SamlProviderConfig {
  const prefix = `SAML_${id.toUpperCase()}_`;
  const lower = id.toLowerCase();
  const idpIssuer = str(env, `${prefix}IDP_ISSUER`);
  if (idpIssuer === undefined) {
    throw new ConfigError(`${prefix}IDP_ISSUER`, "is required (the IdP's entity id)");
  }
  const name = str(env, `${prefix}NAME`) ?? id;
  if (name.length > 64) throw new ConfigError(`${prefix}NAME`, 'must be at most 64 characters');
  return {
    id: lower,
    name,
    entryPoint: providerUrl(
      env,
      `${prefix}ENTRY_POINT`,
      "the IdP's single sign-on URL, e.g. https://login.example.com/realms/staff/protocol/saml",
    ),
    idpIssuer,
    idpCerts: certificates(env, `${prefix}IDP_CERT`, true),
    spEntityId: str(env, `${prefix}SP_ENTITY_ID`) ?? `${publicUrl}/auth/saml/${lower}/metadata`,
    idpInitiated: bool(env, `${prefix}IDP_INITIATED`, false),
    usernameAttribute: attribute(env, `${prefix}USERNAME_ATTRIBUTE`, 'nameID'),
    displayNameAttribute: attribute(env, `${prefix}DISPLAY_NAME_ATTRIBUTE`, 'displayName'),
    emailAttribute: attribute(env, `${prefix}EMAIL_ATTRIBUTE`, 'email'),
    groupsAttribute: attribute(env, `${prefix}GROUPS_ATTRIBUTE`, 'groups'),
    decryption: decryption(env, prefix),
    ...ssoMappings(env, prefix),
  };
}

/** SAML_PROVIDERS and each provider's variables; kb's SAML addresses need KB_PUBLIC_URL. */
export function samlProviders(env: Env, publicUrl: string | undefined): SamlProviderConfig[] {
  const ids = providerIds(env, 'SAML_PROVIDERS');
  if (ids.length === 0) return [];
  if (publicUrl === undefined) {
    throw new ConfigError(
      'KB_PUBLIC_URL',
      'is required with SAML_PROVIDERS (the assertion consumer address <KB_PUBLIC_URL>/auth/saml/<id>/acs is built from it)',
    );
  }
  return ids.map((id) => provider(env, id, publicUrl));
}
