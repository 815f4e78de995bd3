import { isRole, type Role } from '../auth/roles';
import { ConfigError, Env, str, url } from './env-values';

/** One OpenID Connect provider (OIDC_PROVIDERS, OIDC_<ID>_*); see docs/sso.md. */
export interface OidcProviderConfig {
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
  /** Provider group → role; the widest role of a person's groups wins. Empty: roles stay kb's. */
  roleMap: { idpGroup: string; role: Role }[];
  /** Provider group → kb group; the mapped kb groups follow the provider at every sign-in. */
  groupMap: { idpGroup: string; kbGroup: string }[];
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_]{0,31}$/;
const CLAIM_PATTERN = /^[A-Za-z0-9_.:/-]{1,128}$/;
/** As GROUP_NAME_PATTERN of the group DTO (kb stores group names in lowercase). */
const KB_GROUP_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * `a=b,c=d` with `=` splitting at the last one, so a provider group may itself hold one. Pairs
 * are separated by `;` when the value holds one (an LDAP group DN holds commas), else by `,`.
 */
function pairs(env: Env, name: string): [string, string][] {
  const raw = str(env, name);
  if (raw === undefined) return [];
  return raw
    .split(raw.includes(';') ? ';' : ',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.lastIndexOf('=');
      const left = at > 0 ? item.slice(0, at).trim() : '';
      const right = at > 0 ? item.slice(at + 1).trim() : '';
      if (!left || !right) {
        throw new ConfigError(name, `must be a list of idp-group=value pairs, got "${item}"`);
      }
      return [left, right];
    });
}

/**
 * A provider's `<prefix>ROLE_MAP` and `<prefix>GROUP_MAP` (OIDC, LDAP): provider group → role
 * and provider group → kb group; `key` gives the form provider groups are compared in.
 */
export function groupMappings(
  env: Env,
  prefix: string,
  key: (idpGroup: string) => string = (group) => group,
): Pick<OidcProviderConfig, 'roleMap' | 'groupMap'> {
  return {
    roleMap: pairs(env, `${prefix}ROLE_MAP`).map(([idpGroup, role]) => {
      if (!isRole(role)) {
        throw new ConfigError(
          `${prefix}ROLE_MAP`,
          `must map to admin, editor or reader, got "${role}"`,
        );
      }
      return { idpGroup: key(idpGroup), role };
    }),
    groupMap: pairs(env, `${prefix}GROUP_MAP`).map(([idpGroup, kbGroup]) => {
      if (!KB_GROUP_PATTERN.test(kbGroup)) {
        throw new ConfigError(
          `${prefix}GROUP_MAP`,
          `must map to kb group names (1-64 letters, digits, ".", "_" or "-"), got "${kbGroup}"`,
        );
      }
      return { idpGroup: key(idpGroup), kbGroup: kbGroup.toLowerCase() };
    }),
  };
}

function claim(env: Env, name: string, fallback: string): string {
  const value = str(env, name) ?? fallback;
  if (!CLAIM_PATTERN.test(value))
    throw new ConfigError(name, `must be a claim name, got "${value}"`);
  return value;
}

/** An https issuer; plain http only on a loopback host (a provider on the same machine). */
function issuer(env: Env, name: string): string {
  const raw = url(env, name, ['http:', 'https:']);
  if (raw === undefined)
    throw new ConfigError(
      name,
      'is required (the issuer URL, e.g. https://login.example.com/realms/staff)',
    );
  const parsed = new URL(raw);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && !loopback) {
    throw new ConfigError(
      name,
      `must use https (http only for a provider on this machine), got "${raw}"`,
    );
  }
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
    ...groupMappings(env, prefix),
  };
}

/** OIDC_PROVIDERS and each provider's variables; a provider needs KB_PUBLIC_URL for its callback. */
export function oidcProviders(env: Env, publicUrl: string | undefined): OidcProviderConfig[] {
  const ids = (str(env, 'OIDC_PROVIDERS') ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  for (const id of ids) {
    if (!ID_PATTERN.test(id)) {
      throw new ConfigError(
        'OIDC_PROVIDERS',
        `must list ids of letters, digits and "_", got "${id}"`,
      );
    }
    if (seen.has(id.toLowerCase())) throw new ConfigError('OIDC_PROVIDERS', `lists "${id}" twice`);
    seen.add(id.toLowerCase());
  }
  if (ids.length > 0 && publicUrl === undefined) {
    throw new ConfigError(
      'KB_PUBLIC_URL',
      'is required with OIDC_PROVIDERS (the callback address <KB_PUBLIC_URL>/auth/oidc/<id>/callback is built from it)',
    );
  }
  return ids.map((id) => provider(env, id));
}
