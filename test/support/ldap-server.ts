import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './ports';

const run = promisify(execFile);

/** Debian's slapd lives in /usr/sbin, often outside a user's PATH. */
const SLAPD = '/usr/sbin/slapd';

export const LDAP_BASE = 'dc=example,dc=org';
export const LDAP_PEOPLE = `ou=people,${LDAP_BASE}`;
export const LDAP_GROUPS = `ou=groups,${LDAP_BASE}`;
const ROOT_DN = `cn=admin,${LDAP_BASE}`;
const ROOT_PASSWORD = 'root-secret';

/** The service account kb binds as to search (a person entry with its own password). */
export const SERVICE_DN = `cn=kb-service,${LDAP_BASE}`;
export const SERVICE_PASSWORD = 'service-secret-never-logged';

export interface LdapPerson {
  uid: string;
  password: string;
  displayName: string;
  mail?: string;
  /** Group names (cn under ou=groups). */
  groups: string[];
}

/**
 * A private OpenLDAP server (Debian's slapd) for a test: its own slapd.conf, database and
 * certificates in a temporary folder, its own ports (plain `ldap://` with StartTLS, and
 * `ldaps://`), people and groupOfNames groups loaded with ldapadd, and memberOf kept by the
 * memberof overlay. `stop()` and `start()` take it away and bring it back on the same ports.
 */
export interface TestLdapServer {
  /** ldap://127.0.0.1:<port> (StartTLS offered). */
  url: string;
  /** ldaps://127.0.0.1:<port> */
  ldapsUrl: string;
  /** The test CA's certificate (PEM file) that signed the server's. */
  caFile: string;
  /** Another CA's certificate: the server's is not signed by it. */
  otherCaFile: string;
  /** Replaces the groups of a person (memberOf follows). */
  setGroups(uid: string, groups: string[]): Promise<void>;
  /** Adds a person. */
  addPerson(person: LdapPerson): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Distinct names of every group the people belong to, plus `extraGroups`. */
function groupNames(people: LdapPerson[], extraGroups: string[]): string[] {
  return [...new Set([...people.flatMap((p) => p.groups), ...extraGroups])].sort();
}

function personLdif(p: LdapPerson): string {
  return [
    `dn: uid=${p.uid},${LDAP_PEOPLE}`,
    'objectClass: inetOrgPerson',
    `uid: ${p.uid}`,
    `cn: ${p.displayName}`,
    `sn: ${p.displayName.split(' ').pop()}`,
    `displayName: ${p.displayName}`,
    ...(p.mail ? [`mail: ${p.mail}`] : []),
    `userPassword: ${p.password}`,
    '',
  ].join('\n');
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  await run('openssl', args, { cwd: dir });
}

/** A CA, a server certificate for 127.0.0.1 and localhost signed by it, and an unrelated CA. */
async function certificates(dir: string): Promise<void> {
  for (const ca of ['ca', 'other-ca']) {
    await openssl(
      dir,
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=kb test ${ca}`,
      '-keyout',
      `${ca}.key`,
      '-out',
      `${ca}.pem`,
    );
  }
  await openssl(
    dir,
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await openssl(
    dir,
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.pem',
  );
}

function waitForPort(port: number, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) {
        reject(new Error(`slapd exited with ${child.exitCode}`));
        return;
      }
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`slapd did not listen on ${port}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

export async function startLdapServer(
  people: LdapPerson[],
  extraGroups: string[] = [],
): Promise<TestLdapServer> {
  const dir = mkdtempSync(join(tmpdir(), 'kb-slapd-'));
  mkdirSync(join(dir, 'db'));
  await certificates(dir);
  const port = await freePort();
  let tlsPort = await freePort();
  // Nothing holds the first port yet, so the second draw may return it again.
  while (tlsPort === port) tlsPort = await freePort();
  const conf = join(dir, 'slapd.conf');
  writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload memberof',
      `pidfile ${join(dir, 'slapd.pid')}`,
      `argsfile ${join(dir, 'slapd.args')}`,
      `TLSCACertificateFile ${join(dir, 'ca.pem')}`,
      `TLSCertificateFile ${join(dir, 'server.pem')}`,
      `TLSCertificateKeyFile ${join(dir, 'server.key')}`,
      // The service account may read people and groups; a person may bind with their password.
      'access to attrs=userPassword by anonymous auth by * none',
      `access to * by dn.exact="${SERVICE_DN}" read by self read by * none`,
      'database mdb',
      `suffix "${LDAP_BASE}"`,
      `rootdn "${ROOT_DN}"`,
      `rootpw ${ROOT_PASSWORD}`,
      `directory ${join(dir, 'db')}`,
      'maxsize 67108864',
      'overlay memberof',
      '',
    ].join('\n'),
  );

  let child: ChildProcess | null = null;
  let log = '';
  const start = async () => {
    child = spawn(
      SLAPD,
      [
        '-f',
        conf,
        '-h',
        `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`,
        // In the foreground, logging only what stops it.
        '-d',
        'none',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
    try {
      await waitForPort(port, child);
      await waitForPort(tlsPort, child);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log}`);
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };

  const url = `ldap://127.0.0.1:${port}`;
  const ldap = async (tool: 'ldapadd' | 'ldapmodify', ldif: string) => {
    const file = join(dir, `change-${Date.now()}-${Math.random().toString(36).slice(2)}.ldif`);
    writeFileSync(file, ldif);
    await run(tool, ['-x', '-H', url, '-D', ROOT_DN, '-w', ROOT_PASSWORD, '-f', file]);
  };

  await start();
  const groups = groupNames(people, extraGroups);
  const memberships = new Map(
    groups.map((name) => [
      name,
      new Set(
        people.filter((p) => p.groups.includes(name)).map((p) => `uid=${p.uid},${LDAP_PEOPLE}`),
      ),
    ]),
  );
  await ldap(
    'ldapadd',
    [
      [
        `dn: ${LDAP_BASE}`,
        'objectClass: dcObject',
        'objectClass: organization',
        'o: Example',
        'dc: example',
        '',
      ],
      [`dn: ${LDAP_PEOPLE}`, 'objectClass: organizationalUnit', 'ou: people', ''],
      [`dn: ${LDAP_GROUPS}`, 'objectClass: organizationalUnit', 'ou: groups', ''],
      [
        `dn: ${SERVICE_DN}`,
        'objectClass: person',
        'cn: kb-service',
        'sn: service',
        `userPassword: ${SERVICE_PASSWORD}`,
        '',
      ],
      ...people.map((p) => [personLdif(p)]),
      // groupOfNames needs a member: the service account holds every group open.
      ...groups.map((name) => [
        `dn: cn=${name},${LDAP_GROUPS}`,
        'objectClass: groupOfNames',
        `cn: ${name}`,
        `member: ${SERVICE_DN}`,
        ...[...memberships.get(name)!].map((dn) => `member: ${dn}`),
        '',
      ]),
    ]
      .map((lines) => lines.join('\n'))
      .join('\n'),
  );

  return {
    url,
    ldapsUrl: `ldaps://127.0.0.1:${tlsPort}`,
    caFile: join(dir, 'ca.pem'),
    otherCaFile: join(dir, 'other-ca.pem'),
    async setGroups(uid, wanted) {
      const dn = `uid=${uid},${LDAP_PEOPLE}`;
      for (const name of groups) {
        const members = memberships.get(name)!;
        if (wanted.includes(name)) members.add(dn);
        else members.delete(dn);
        await ldap(
          'ldapmodify',
          [
            `dn: cn=${name},${LDAP_GROUPS}`,
            'changetype: modify',
            'replace: member',
            ...[SERVICE_DN, ...members].map((m) => `member: ${m}`),
            '',
          ].join('\n'),
        );
      }
    },
    async addPerson(person) {
      await ldap('ldapadd', personLdif(person));
    },
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
