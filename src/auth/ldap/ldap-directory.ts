import { Injectable, Logger } from '@nestjs/common';
import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import {
  Client,
  type Entry,
  Filter,
  InvalidCredentialsError,
  SizeLimitExceededError,
} from 'ldapts';
import { InjectConfig } from '../../common/config/app-config';
import { ldapGroupKey, type LdapConfig, type LdapGroup } from '../../common/config/ldap-config';
import { Problem } from '../../common/problems/problem';
import type { SsoIdentity } from '../oidc/sso-accounts.service';

/** How long a client should wait before trying again when the directory cannot be reached. */
export const LDAP_RETRY_AFTER_SECONDS = 30;

/** Why the directory signed nobody in (for the audit line). */
export type LdapRefusal = 'not_found' | 'ambiguous' | 'wrong_password';

export type LdapAnswer = { identity: SsoIdentity } | { refused: LdapRefusal };

/**
 * The LDAP / Active Directory adapter over ldapts: a bind as the service account, a search for
 * the person by LDAP_USER_FILTER (the typed name escaped per RFC 4515, so it can only ever be
 * a value), their groups (memberOf or a group search), then a bind as the person to check the
 * password. One connection per sign-in, closed after it.
 */
@Injectable()
export class LdapDirectory {
  private readonly logger = new Logger('LdapDirectory');

  constructor(@InjectConfig('ldap') private readonly config: LdapGroup) {}

  get configured(): boolean {
    return this.config.directory !== null;
  }

  /** Who `username` is in the directory if `password` is theirs; 503 when it cannot be asked. */
  async authenticate(username: string, password: string): Promise<LdapAnswer> {
    const ldap = this.config.directory;
    if (!ldap) return { refused: 'not_found' };
    // An empty password makes a simple bind "unauthenticated" (RFC 4513 5.1.2), which many
    // directories accept: it would sign anyone in.
    if (password === '') return { refused: 'wrong_password' };
    const client = this.client(ldap);
    try {
      if (ldap.startTls) await client.startTLS(this.tls(ldap));
      if (ldap.bindDn) await client.bind(ldap.bindDn, ldap.bindPassword);
      const filter = ldap.userFilter.split('{username}').join(Filter.escape(username));
      const searchEntries = await this.searchPeople(client, ldap, filter);
      if (!searchEntries) return { refused: 'ambiguous' };
      if (searchEntries.length === 0) return { refused: 'not_found' };
      if (searchEntries.length > 1) return { refused: 'ambiguous' };
      const entry = searchEntries[0];
      const groups = ldap.groupFilter
        ? await this.searchGroups(client, ldap, entry.dn, username)
        : values(entry, ldap.groupsAttribute);
      try {
        await client.bind(entry.dn, password);
      } catch (error) {
        if (error instanceof InvalidCredentialsError) return { refused: 'wrong_password' };
        throw error;
      }
      return { identity: identityOf(entry, username, groups) };
    } catch (error) {
      this.logger.warn({
        msg: 'LDAP directory unavailable',
        url: ldap.url,
        error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      });
      throw unavailable();
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  private client(ldap: LdapConfig): Client {
    return new Client({
      url: ldap.url,
      connectTimeout: ldap.connectTimeoutMs,
      timeout: ldap.timeoutMs,
      // ldapts speaks TLS from the start whenever tlsOptions are given: only for ldaps://.
      ...(ldap.url.startsWith('ldaps:') ? { tlsOptions: this.tls(ldap) } : {}),
    });
  }

  /** LDAP_CA_FILE's certificates (else the system's); the host name is always checked. */
  private tls(ldap: LdapConfig): ConnectionOptions {
    const host = new URL(ldap.url).hostname.replace(/^\[|\]$/g, '');
    return {
      ...(ldap.ca ? { ca: ldap.ca } : {}),
      host,
      ...(isIP(host) ? {} : { servername: host }),
      minVersion: 'TLSv1.2',
    };
  }

  /** The entries the user filter finds (at most two are asked for); null: more than one. */
  private async searchPeople(
    client: Client,
    ldap: LdapConfig,
    filter: string,
  ): Promise<Entry[] | null> {
    try {
      const { searchEntries } = await client.search(ldap.searchBase, {
        scope: 'sub',
        filter,
        sizeLimit: 2,
        timeLimit: Math.ceil(ldap.timeoutMs / 1000),
        attributes: [...PERSON_ATTRIBUTES, ldap.groupsAttribute],
        explicitBufferAttributes: ['objectGUID'],
      });
      return searchEntries;
    } catch (error) {
      if (error instanceof SizeLimitExceededError) return null;
      throw error;
    }
  }

  /** The DNs and names of the groups LDAP_GROUP_FILTER finds for the person. */
  private async searchGroups(
    client: Client,
    ldap: LdapConfig,
    dn: string,
    username: string,
  ): Promise<string[]> {
    const filter = ldap
      .groupFilter!.split('{dn}')
      .join(Filter.escape(dn))
      .split('{username}')
      .join(Filter.escape(username));
    const { searchEntries } = await client.search(ldap.groupSearchBase, {
      scope: 'sub',
      filter,
      sizeLimit: 1000,
      timeLimit: Math.ceil(ldap.timeoutMs / 1000),
      attributes: ['cn'],
    });
    return searchEntries.flatMap((group) => [group.dn, ...values(group, 'cn')]);
  }
}

const PERSON_ATTRIBUTES = [
  'entryUUID',
  'objectGUID',
  'uid',
  'sAMAccountName',
  'cn',
  'displayName',
  'mail',
];

/** An attribute's string values (attribute names are case-insensitive; ldapts keeps the asked case). */
function values(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key ? entry[key] : undefined;
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)).filter(Boolean);
}

function first(entry: Entry, name: string): string | undefined {
  return values(entry, name)[0];
}

/** A group DN also counts by its name (the value of its first RDN: `cn=editors,…` → editors). */
export function groupKeys(groups: string[]): string[] {
  const keys = groups.flatMap((group) => {
    const rdn = /^[^=,]+=((?:\\.|[^,+\\])+)/.exec(group.trim());
    return rdn ? [group, rdn[1]] : [group];
  });
  return [...new Set(keys.map(ldapGroupKey))];
}

function identityOf(entry: Entry, typed: string, groups: string[]): SsoIdentity {
  // The directory's own name for the person, else what they typed; an address gives its local
  // part (kb usernames hold no "@").
  const username = (first(entry, 'uid') ?? first(entry, 'sAMAccountName') ?? typed).replace(
    /@.*$/,
    '',
  );
  return {
    provider: 'ldap',
    // A stable id that survives a rename or a move of the entry; the DN when there is none.
    subject: first(entry, 'entryUUID') ?? first(entry, 'objectGUID') ?? entry.dn.toLowerCase(),
    username,
    displayName: first(entry, 'displayName') ?? first(entry, 'cn'),
    // The directory is run by the organisation: its addresses count as verified.
    email: first(entry, 'mail'),
    groups: groupKeys(groups),
  };
}

/** 503 with Retry-After, as a header and in the problem body. */
function unavailable(): Problem {
  return new Problem(
    503,
    'ldap_unavailable',
    `The directory (LDAP) could not be reached, so directory accounts cannot sign in now. Try again in ${LDAP_RETRY_AFTER_SECONDS} seconds; local accounts still can.`,
    { retryAfter: LDAP_RETRY_AFTER_SECONDS },
    { 'Retry-After': String(LDAP_RETRY_AFTER_SECONDS) },
  );
}
