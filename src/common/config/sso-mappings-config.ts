import { isRole, type Role } from '../auth/roles';
import { ConfigError, Env, str, url } from './env-values';

/** Provider group → role and → kb group (`<PREFIX>ROLE_MAP`, `<PREFIX>GROUP_MAP`); docs/sso.md. */
export interface SsoMappingsConfig {
  /** Provider group → role; the widest role of a person's groups wins. Empty: roles stay kb's. */
  roleMap: { idpGroup: string; role: Role }[];
  /** Provider group → kb group; the mapped kb groups follow the provider at every sign-in. */
  groupMap: { idpGroup: string; kbGroup: string }[];
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_]{0,31}$/;
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
 * The role and group maps of one provider (OIDC, SAML, LDAP), from `<prefix>ROLE_MAP` and
 * `<prefix>GROUP_MAP`; `key` gives the form provider groups are compared in.
 */
export function ssoMappings(
  env: Env,
  prefix: string,
  key: (idpGroup: string) => string = (group) => group,
): SsoMappingsConfig {
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

/** The provider ids listed in `variable` (OIDC_PROVIDERS, SAML_PROVIDERS): checked, no repeats. */
export function providerIds(env: Env, variable: string): string[] {
  const ids = (str(env, variable) ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  for (const id of ids) {
    if (!ID_PATTERN.test(id)) {
      throw new ConfigError(variable, `must list ids of letters, digits and "_", got "${id}"`);
    }
    if (seen.has(id.toLowerCase())) throw new ConfigError(variable, `lists "${id}" twice`);
    seen.add(id.toLowerCase());
  }
  return ids;
}

/** An https URL; plain http only on a loopback host (a provider on the same machine). */
export function providerUrl(env: Env, name: string, example: string): string {
  const raw = url(env, name, ['http:', 'https:']);
  if (raw === undefined) throw new ConfigError(name, `is required (${example})`);
  const parsed = new URL(raw);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'http:' && !loopback) {
    throw new ConfigError(
      name,
      `must use https (http only for a provider on this machine), got "${raw}"`,
    );
  }
  return raw;
}
