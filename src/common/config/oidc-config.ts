import { ConfigError, Env, str } from './env-values';
import { providerIds, providerUrl, ssoMappings, SsoMappingsConfig } from './sso-mappings-config';

/** One OpenID Connect provider (OIDC_PROVIDERS, OIDC_<ID>_*); see docs/sso.md. */
export interface OidcProviderConfig extends SsoMappingsConfig {
  /** Lowercase id from OIDC_PROVIDERS: the callback is `<KB_PUBLIC_URL>/auth/oidc/<id>/callback`. */
  id: string;
  /** The button text: "Sign in with <name>". */
  name: string;
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE only, no client authentication). */
  clientSecret?: string;
  scopes: string[];
  usernameClaim: string;
  displayNameClaim: string;
  emailClaim: string;
  groupsClaim: string;
}

const CLAIM_PATTERN = /^[A-Za-z0-9_.:/-]{1,128}$/;

function claim(env: Env, name: string, fallback: string): string {
  const value = str(env, name) ?? fallback;
  if (!CLAIM_PATTERN.test(value))
    throw new ConfigError(name, `must be a claim name, got "${value}"`);
  return value;
}

/** An https issuer; plain http only on a loopback host (a provider on the same machine). */
function issuer(env: Env, name: string): string {
  const raw = providerUrl(env, name, 'the issuer URL, e.g. https://login.example.com/realms/staff');
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(
      name,
      `must be an issuer URL without query, fragment or credentials, got "${raw}"`,
    );
  }
  // As the provider writes it (Authentik's ends with a slash): discovery compares it exactly.
  return raw;
}

function provider(env: Env, id: string): OidcProviderConfig {
  const prefix = `OIDC_${id.toUpperCase()}_`;
  const clientId = str(env, `${prefix}CLIENT_ID`);
  if (clientId === undefined) throw new ConfigError(`${prefix}CLIENT_ID`, 'is required');
  const scopes = (str(env, `${prefix}SCOPES`) ?? 'openid profile email')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (!scopes.includes('openid')) {
    throw new ConfigError(`${prefix}SCOPES`, `must include openid, got "${scopes.join(' ')}"`);
  }
  const name = str(env, `${prefix}NAME`) ?? id;
  if (name.length > 64) throw new ConfigError(`${prefix}NAME`, 'must be at most 64 characters');
  return {
    id: id.toLowerCase(),
    name,
    issuer: issuer(env, `${prefix}ISSUER`),
    clientId,
    clientSecret: str(env, `${prefix}CLIENT_SECRET`),
    scopes,
    usernameClaim: claim(env, `${prefix}USERNAME_CLAIM`, 'preferred_username'),
    displayNameClaim: claim(env, `${prefix}DISPLAY_NAME_CLAIM`, 'name'),
    emailClaim: claim(env, `${prefix}EMAIL_CLAIM`, 'email'),
    groupsClaim: claim(env, `${prefix}GROUPS_CLAIM`, 'groups'),
    ...ssoMappings(env, prefix),
  };
}

/** OIDC_PROVIDERS and each provider's variables; a provider needs KB_PUBLIC_URL for its callback. */
export function oidcProviders(env: Env, publicUrl: string | undefined): OidcProviderConfig[] {
  const ids = providerIds(env, 'OIDC_PROVIDERS');
  if (ids.length > 0 && publicUrl === undefined) {
    throw new ConfigError(
      'KB_PUBLIC_URL',
      'is required with OIDC_PROVIDERS (the callback address <KB_PUBLIC_URL>/auth/oidc/<id>/callback is built from it)',
    );
  }
  return ids.map((id) => provider(env, id));
}
