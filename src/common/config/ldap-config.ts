import { readFileSync } from 'node:fs';
import { canonicalUsername } from '../text/username';
import { ConfigError, Env, int, str, url } from './env-values';
import { ssoMappings, SsoMappingsConfig } from './sso-mappings-config';

/** The LDAP / Active Directory directory (LDAP_*); see docs/sso.md. */
export interface LdapConfig {
  url: string;
  /** The service account that searches for people; absent: an anonymous search. */
  bindDn?: string;
  bindPassword?: string;
  searchBase: string;
  /** A filter holding `{username}`, replaced by the typed name escaped per RFC 4515. */
  userFilter: string;
  /** The attribute of a person's entry listing their groups' DNs (`memberOf`). */
  groupsAttribute: string;
  /** A group search instead (`(member={dn})`), when the directory has no memberOf. */
  groupFilter?: string;
  groupSearchBase: string;
  /** Directory group (a DN or a name, compared as `ldapGroupKey`) → role and → kb group. */
  roleMap: SsoMappingsConfig['roleMap'];
  groupMap: SsoMappingsConfig['groupMap'];
  /** PEM certificates trusted for LDAPS and StartTLS (LDAP_CA_FILE); absent: the system's. */
  ca?: string;
  startTls: boolean;
  connectTimeoutMs: number;
  timeoutMs: number;
}

/** The `ldap` configuration group. */
export interface LdapGroup {
  directory: LdapConfig | null;
}

/** Who may use a local password, and whether SSO identities join local accounts by email. */
export interface LoginPolicyConfig {
  /** LOCAL_LOGIN=on (default): every account may; off: only `localLoginAccounts`. */
  localLogin: boolean;
  /** LOCAL_LOGIN_ACCOUNTS, canonical usernames: the break-glass accounts. */
  localLoginAccounts: string[];
  /** SSO_LINK_BY_EMAIL: a first SSO or LDAP sign-in joins the local account of the same email. */
  linkByEmail: boolean;
}

/**
 * The form a directory group is compared in: DNs and names are case-insensitive in LDAP, and a
 * DN may be written with spaces after its commas.
 */
export function ldapGroupKey(group: string): string {
  return group
    .trim()
    .toLowerCase()
    .replace(/\s*([,=+])\s*/g, '$1');
}

/** on/off (true/false, yes/no, 1/0 also read), as LOCAL_LOGIN documents. */
function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['on', 'true', 'yes', '1'].includes(raw)) return true;
  if (['off', 'false', 'no', '0'].includes(raw)) return false;
  throw new ConfigError(name, `must be on or off, got "${raw}"`);
}

function readCa(env: Env): string | undefined {
  const file = str(env, 'LDAP_CA_FILE');
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('LDAP_CA_FILE', `cannot be read: ${(error as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError('LDAP_CA_FILE', `must hold PEM certificates, "${file}" holds none`);
  }
  return text;
}

/** LDAP_URL and the rest; null when LDAP_URL is not set (no directory). */
export function ldapConfig(env: Env): LdapConfig | null {
  const address = url(env, 'LDAP_URL', ['ldap:', 'ldaps:']);
  if (address === undefined) return null;
  const startTls = flag(env, 'LDAP_STARTTLS', false);
  const parsed = new URL(address);
  if (startTls && parsed.protocol === 'ldaps:') {
    throw new ConfigError('LDAP_STARTTLS', 'is for ldap:// addresses; ldaps:// is already TLS');
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol === 'ldap:' && !startTls && !loopback) {
    // Every sign-in sends a password to the directory: never in clear over a network.
    throw new ConfigError(
      'LDAP_URL',
      `would send passwords in clear: use ldaps:// or LDAP_STARTTLS=on (plain ldap:// only for a directory on this machine), got "${address}"`,
    );
  }
  const searchBase = str(env, 'LDAP_SEARCH_BASE');
  if (searchBase === undefined) {
    throw new ConfigError(
      'LDAP_SEARCH_BASE',
      'is required with LDAP_URL (where people are searched, e.g. ou=people,dc=example,dc=org)',
    );
  }
  const userFilter = str(env, 'LDAP_USER_FILTER') ?? '(uid={username})';
  if (!userFilter.includes('{username}') || !/^\(.*\)$/.test(userFilter)) {
    throw new ConfigError(
      'LDAP_USER_FILTER',
      `must be a filter in parentheses holding {username}, got "${userFilter}"`,
    );
  }
  const groupFilter = str(env, 'LDAP_GROUP_FILTER');
  if (groupFilter !== undefined && !/^\(.*\)$/.test(groupFilter)) {
    throw new ConfigError(
      'LDAP_GROUP_FILTER',
      `must be a filter in parentheses, got "${groupFilter}"`,
    );
  }
  const bindDn = str(env, 'LDAP_BIND_DN');
  const bindPassword = str(env, 'LDAP_BIND_PASSWORD');
  if (bindDn !== undefined && bindPassword === undefined) {
    throw new ConfigError('LDAP_BIND_PASSWORD', 'is required with LDAP_BIND_DN');
  }
  return {
    url: address,
    bindDn,
    bindPassword,
    searchBase,
    userFilter,
    groupsAttribute: str(env, 'LDAP_GROUPS_ATTRIBUTE') ?? 'memberOf',
    groupFilter,
    groupSearchBase: str(env, 'LDAP_GROUP_SEARCH_BASE') ?? searchBase,
    ...ssoMappings(env, 'LDAP_', ldapGroupKey),
    ca: readCa(env),
    startTls,
    connectTimeoutMs: int(env, 'LDAP_CONNECT_TIMEOUT_MS', 5000, 100, 120_000),
    timeoutMs: int(env, 'LDAP_TIMEOUT_MS', 5000, 100, 120_000),
  };
}

export function loginPolicy(env: Env): LoginPolicyConfig {
  const localLogin = flag(env, 'LOCAL_LOGIN', true);
  const localLoginAccounts = (str(env, 'LOCAL_LOGIN_ACCOUNTS') ?? '')
    .split(',')
    .map((name) => canonicalUsername(name))
    .filter(Boolean);
  if (!localLogin && localLoginAccounts.length === 0) {
    throw new ConfigError(
      'LOCAL_LOGIN_ACCOUNTS',
      'must name at least one break-glass account when LOCAL_LOGIN=off (an administrator who can still sign in with a password)',
    );
  }
  return { localLogin, localLoginAccounts, linkByEmail: flag(env, 'SSO_LINK_BY_EMAIL', false) };
}
