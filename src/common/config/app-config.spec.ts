import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

function failure(env: Record<string, string>): { variable: string; message: string } {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
    throw error;
  }
  throw new Error('loadConfig accepted ' + JSON.stringify(env));
}

describe('loadConfig', () => {
  it('has defaults that make `npm start` work with nothing set', () => {
    const config = loadConfig({});
    expect(config.http).toEqual(
      expect.objectContaining({
        port: 3000,
        host: '0.0.0.0',
        trustProxy: false,
        allowedOrigins: [],
        jsonBodyLimitBytes: 5 * 1024 * 1024,
      }),
    );
    expect(config.files).toEqual({ dataDir: resolve('./data') });
    expect(config.database).toEqual(
      expect.objectContaining({
        type: 'sqlite',
        sqlitePath: resolve('./data/kb.sqlite'),
        create: false,
      }),
    );
    expect(config.pdf).toEqual(expect.objectContaining({ timeoutMs: 30_000, headerFooter: true }));
    expect(config.http.publicUrl).toBeUndefined();
    expect(config.database.url).toBeUndefined();
    expect(config.pdf.serviceUrl).toBeUndefined();
    expect(config.auth.adminPassword).toBeUndefined();
    expect(config.log.level).toBe('info');
    expect(config.auth).toEqual(
      expect.objectContaining({
        adminUsername: 'admin',
        sessionIdleMinutes: 120,
        sessionAbsoluteHours: 168,
        loginMaxFailures: 5,
        loginIpMaxFailures: 20,
        loginWindowSeconds: 900,
        tokenMaxPerUser: 20,
        passwordHashCost: 'default',
        cacheSeconds: 5,
      }),
    );
    expect(config.media).toEqual(
      expect.objectContaining({
        imageMaxBytes: 10 * 1024 * 1024,
        attachmentMaxBytes: 50 * 1024 * 1024,
      }),
    );
    expect(config.import.maxBytes).toBe(100 * 1024 * 1024);
    expect(config.pages).toEqual(
      expect.objectContaining({
        maxBytes: 2 * 1024 * 1024,
        draftMaxBytes: 4.5 * 1024 * 1024,
        cacheBytes: 64 * 1024 * 1024,
      }),
    );
    expect(config.rateLimit.limits.read).toEqual({ quota: 1200, windowSeconds: 60 });
  });

  it('reads the documented variables', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      KB_DATA_DIR: '/tmp/kb-data',
      DB_TYPE: 'mysql',
      DATABASE_URL: 'mysql://kb:secret@db:3306/kb',
      KB_ADMIN_USERNAME: 'Root',
      KB_ADMIN_PASSWORD: 'long-enough',
      PDF_SERVICE_URL: 'http://gotenberg:3000',
      PDF_SERVICE_TIMEOUT_MS: '5000',
      PDF_HEADER_FOOTER: 'false',
      KB_PUBLIC_URL: 'https://wiki.example.com/kb/',
      DB_CREATE: 'true',
      KB_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443',
      SESSION_IDLE_MINUTES: '15',
    });
    expect(config.http).toEqual(
      expect.objectContaining({
        port: 8080,
        host: '127.0.0.1',
        publicUrl: 'https://wiki.example.com/kb',
        allowedOrigins: ['https://a.example', 'https://b.example:8443'],
      }),
    );
    expect(config.files.dataDir).toBe('/tmp/kb-data');
    expect(config.database).toEqual(
      expect.objectContaining({
        sqlitePath: '/tmp/kb-data/kb.sqlite',
        type: 'mysql',
        url: 'mysql://kb:secret@db:3306/kb',
        create: true,
      }),
    );
    expect(config.auth).toEqual(
      expect.objectContaining({
        adminUsername: 'root',
        adminPassword: 'long-enough',
        sessionIdleMinutes: 15,
      }),
    );
    expect(config.pdf).toEqual(
      expect.objectContaining({
        serviceUrl: 'http://gotenberg:3000',
        timeoutMs: 5000,
        headerFooter: false,
      }),
    );
  });

  it.each([
    ['true', true],
    ['false', false],
    ['1', 1],
    ['2', 2],
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 192.168.1.1', '10.0.0.0/8, 192.168.1.1'],
    ['::1/128', '::1/128'],
  ])('reads TRUST_PROXY=%s as Express expects it', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).http.trustProxy).toEqual(expected);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ DB_TYPE: 'postgres' }, 'DB_TYPE'],
    [{ DB_TYPE: 'mysql' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://x@y/z' }, 'DATABASE_URL'],
    [{ DATABASE_REPLICA_URLS: 'mysql://r@a/kb, replica-b' }, 'DATABASE_REPLICA_URLS'],
    [{ DATABASE_REPLICA_URLS: 'postgres://x@y/z' }, 'DATABASE_REPLICA_URLS'],
    [{ DATABASE_REPLICA_STICKY_SECONDS: '-1' }, 'DATABASE_REPLICA_STICKY_SECONDS'],
    [{ KB_ADMIN_USERNAME: 'no spaces please' }, 'KB_ADMIN_USERNAME'],
    [{ KB_ADMIN_PASSWORD: 'short' }, 'KB_ADMIN_PASSWORD'],
    [{ PDF_SERVICE_URL: 'ftp://files' }, 'PDF_SERVICE_URL'],
    [{ PDF_SERVICE_TIMEOUT_MS: '10' }, 'PDF_SERVICE_TIMEOUT_MS'],
    [{ PDF_HEADER_FOOTER: 'yes' }, 'PDF_HEADER_FOOTER'],
    [{ KB_PUBLIC_URL: 'wiki.example.com' }, 'KB_PUBLIC_URL'],
    [{ KB_PUBLIC_URL: 'https://wiki.example.com/?x=1' }, 'KB_PUBLIC_URL'],
    [{ KB_PUBLIC_URL: 'https://user:pw@wiki.example.com' }, 'KB_PUBLIC_URL'],
    [{ DB_CREATE: '1' }, 'DB_CREATE'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/99' }, 'TRUST_PROXY'],
    [{ KB_ALLOWED_ORIGINS: 'https://ok.example,https://bad.example/path' }, 'KB_ALLOWED_ORIGINS'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES'],
    [{ SESSION_ABSOLUTE_HOURS: '1.5' }, 'SESSION_ABSOLUTE_HOURS'],
    [{ LOGIN_MAX_FAILURES: 'many' }, 'LOGIN_MAX_FAILURES'],
    [{ LOGIN_IP_MAX_FAILURES: '0' }, 'LOGIN_IP_MAX_FAILURES'],
    [{ LOGIN_WINDOW_SECONDS: '999999' }, 'LOGIN_WINDOW_SECONDS'],
    [{ TOKEN_MAX_PER_USER: '0' }, 'TOKEN_MAX_PER_USER'],
    [{ JSON_BODY_LIMIT_BYTES: '10' }, 'JSON_BODY_LIMIT_BYTES'],
    [{ IMAGE_MAX_BYTES: '0' }, 'IMAGE_MAX_BYTES'],
    [{ PASSWORD_HASH_COST: 'cheap' }, 'PASSWORD_HASH_COST'],
    [{ AUTH_CACHE_SECONDS: '3600' }, 'AUTH_CACHE_SECONDS'],
    [{ REVIEW_CHECK_INTERVAL_SECONDS: 'x' }, 'REVIEW_CHECK_INTERVAL_SECONDS'],
    [{ MEDIA_STORE: 'gcs' }, 'MEDIA_STORE'],
    [{ MEDIA_STORE: 's3' }, 'S3_BUCKET'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'kb-media', S3_ENDPOINT: 'minio:9000' }, 'S3_ENDPOINT'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'kb-media', S3_ACCESS_KEY_ID: 'a' }, 'S3_SECRET_ACCESS_KEY'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'kb-media', S3_SECRET_ACCESS_KEY: 'b' }, 'S3_ACCESS_KEY_ID'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'kb-media', S3_FORCE_PATH_STYLE: '1' }, 'S3_FORCE_PATH_STYLE'],
    [{ PORT: '1e3' }, 'PORT'],
    [{ PORT: '0x10' }, 'PORT'],
    [{ ATTACHMENT_MAX_BYTES: '0' }, 'ATTACHMENT_MAX_BYTES'],
    [{ IMPORT_MAX_BYTES: '0' }, 'IMPORT_MAX_BYTES'],
    [{ IMPORT_MAX_ENTRIES: '1000001' }, 'IMPORT_MAX_ENTRIES'],
    [{ IMPORT_JOB_RETENTION_DAYS: '0' }, 'IMPORT_JOB_RETENTION_DAYS'],
    [{ IMPORT_JOB_LEASE_SECONDS: '1' }, 'IMPORT_JOB_LEASE_SECONDS'],
    [{ IMPORT_JOB_RESUME_SECONDS: '9' }, 'IMPORT_JOB_RESUME_SECONDS'],
    [{ MEDIA_SWEEP_INTERVAL_SECONDS: 'hourly' }, 'MEDIA_SWEEP_INTERVAL_SECONDS'],
    [{ MEDIA_SWEEP_GRACE_SECONDS: '0' }, 'MEDIA_SWEEP_GRACE_SECONDS'],
    [{ PAGE_MAX_BYTES: '1023' }, 'PAGE_MAX_BYTES'],
    [{ DRAFT_MAX_BYTES: '0' }, 'DRAFT_MAX_BYTES'],
    [{ PAGE_CACHE_MB: '4097' }, 'PAGE_CACHE_MB'],
    [{ KB_WORKERS: '0' }, 'KB_WORKERS'],
    [{ KB_READ_WORKERS: '65' }, 'KB_READ_WORKERS'],
    [{ KB_RENDER_WORKERS: 'two' }, 'KB_RENDER_WORKERS'],
    [{ WEBHOOK_RETRY_BASE_MS: '0' }, 'WEBHOOK_RETRY_BASE_MS'],
    [{ WEBHOOK_MAX_ATTEMPTS: '101' }, 'WEBHOOK_MAX_ATTEMPTS'],
    [{ WEBHOOK_TIMEOUT_MS: '99' }, 'WEBHOOK_TIMEOUT_MS'],
    [{ WEBHOOK_POLL_MS: '9' }, 'WEBHOOK_POLL_MS'],
    [{ EVENT_STREAM_POLL_MS: '9' }, 'EVENT_STREAM_POLL_MS'],
    [{ WEBHOOK_ALLOW_PRIVATE: 'on' }, 'WEBHOOK_ALLOW_PRIVATE'],
    [{ RATE_LIMIT_READ: 'lots' }, 'RATE_LIMIT_READ'],
    [{ RATE_LIMIT_IMPORT: '10/forever' }, 'RATE_LIMIT_IMPORT'],
    [{ RATE_LIMIT_SYNC_MS: '5' }, 'RATE_LIMIT_SYNC_MS'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ IDEMPOTENCY_TTL_SECONDS: '0' }, 'IDEMPOTENCY_TTL_SECONDS'],
    [{ IDEMPOTENCY_WAIT_MS: '-5' }, 'IDEMPOTENCY_WAIT_MS'],
    [{ IDEMPOTENCY_LEASE_SECONDS: '86401' }, 'IDEMPOTENCY_LEASE_SECONDS'],
    [{ SHUTDOWN_DELAY_SECONDS: '301' }, 'SHUTDOWN_DELAY_SECONDS'],
    [{ SHUTDOWN_TIMEOUT_SECONDS: '0' }, 'SHUTDOWN_TIMEOUT_SECONDS'],
    [{ MCP_ENABLED: 'no' }, 'MCP_ENABLED'],
  ])('refuses %j naming %s', (env, variable) => {
    const result = failure(env as Record<string, string>);
    expect(result.variable).toBe(variable);
    expect(result.message).toMatch(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('reads the live co-editing settings (COLLAB_*) and refuses bad ones by name', () => {
    expect(loadConfig({}).collab).toEqual({
      saveIdleSeconds: 30,
      readersFollow: true,
      maxConnectionsPerUser: 20,
      maxConnectionsPerPage: 100,
      maxMessageBytes: 1024 * 1024,
      maxMessagesPerSecond: 100,
      pingSeconds: 30,
    });
    expect(loadConfig({ COLLAB_SAVE_IDLE_SECONDS: '5' }).collab.saveIdleSeconds).toBe(5);
    expect(failure({ COLLAB_SAVE_IDLE_SECONDS: 'soon' })).toEqual({
      variable: 'COLLAB_SAVE_IDLE_SECONDS',
      message: 'Invalid configuration: COLLAB_SAVE_IDLE_SECONDS must be a whole number, got "soon"',
    });
    expect(failure({ COLLAB_READERS: 'maybe' }).variable).toBe('COLLAB_READERS');
  });

  it('reads the media store: local by default, or an S3 bucket with the S3_* variables', () => {
    expect(loadConfig({}).media.store).toEqual({ kind: 'local' });
    expect(
      loadConfig({
        MEDIA_STORE: 's3',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-central-1',
        S3_BUCKET: 'kb-media',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      }).media.store,
    ).toEqual({
      kind: 's3',
      endpoint: 'http://minio:9000',
      region: 'eu-central-1',
      bucket: 'kb-media',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    // On AWS: the region's endpoint and the SDK's default credentials (instance role, ...).
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'kb-media' }).media.store).toEqual({
      kind: 's3',
      endpoint: undefined,
      region: 'us-east-1',
      bucket: 'kb-media',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
    });
  });

  it('reads DATABASE_REPLICA_URLS as a comma-separated list, none by default', () => {
    expect(loadConfig({}).database.replicaUrls).toEqual([]);
    expect(loadConfig({}).database.replicaStickySeconds).toBe(10);
    const config = loadConfig({
      DATABASE_REPLICA_URLS: 'mysql://kb@replica-a:3306/kb, mariadb://kb@replica-b/kb,',
      DATABASE_REPLICA_STICKY_SECONDS: '30',
    });
    expect(config.database.replicaUrls).toEqual([
      'mysql://kb@replica-a:3306/kb',
      'mariadb://kb@replica-b/kb',
    ]);
    expect(config.database.replicaStickySeconds).toBe(30);
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ PORT: '  ', KB_ADMIN_PASSWORD: '' });
    expect(config.http.port).toBe(3000);
    expect(config.auth.adminPassword).toBeUndefined();
  });
});

const OIDC_BASE = {
  KB_PUBLIC_URL: 'https://wiki.example.com',
  OIDC_PROVIDERS: 'keycloak',
  OIDC_KEYCLOAK_ISSUER: 'https://login.example.com/realms/staff',
  OIDC_KEYCLOAK_CLIENT_ID: 'kb',
  OIDC_KEYCLOAK_CLIENT_SECRET: 'secret',
};

describe('OIDC configuration', () => {
  it('has no providers unless OIDC_PROVIDERS names some', () => {
    expect(loadConfig({}).oidc.providers).toEqual([]);
  });

  it('reads a provider with its defaults', () => {
    expect(loadConfig(OIDC_BASE).oidc.providers).toEqual([
      {
        id: 'keycloak',
        name: 'keycloak',
        issuer: 'https://login.example.com/realms/staff',
        clientId: 'kb',
        clientSecret: 'secret',
        scopes: ['openid', 'profile', 'email'],
        usernameClaim: 'preferred_username',
        displayNameClaim: 'name',
        emailClaim: 'email',
        groupsClaim: 'groups',
        roleMap: [],
        groupMap: [],
      },
    ]);
  });

  it('reads every variable of several providers', () => {
    const [keycloak, google] = loadConfig({
      ...OIDC_BASE,
      OIDC_PROVIDERS: 'keycloak, Google',
      OIDC_KEYCLOAK_NAME: 'Company SSO',
      OIDC_KEYCLOAK_SCOPES: 'openid profile email groups',
      OIDC_KEYCLOAK_USERNAME_CLAIM: 'email',
      OIDC_KEYCLOAK_GROUPS_CLAIM: 'roles',
      OIDC_KEYCLOAK_ROLE_MAP: '/kb-admins=admin, /kb-editors=editor',
      OIDC_KEYCLOAK_GROUP_MAP: '/staff/eng=Engineering,cn=ops=ops',
      OIDC_GOOGLE_ISSUER: 'https://accounts.google.com',
      OIDC_GOOGLE_CLIENT_ID: 'g',
    }).oidc.providers;
    expect(keycloak).toMatchObject({
      name: 'Company SSO',
      scopes: ['openid', 'profile', 'email', 'groups'],
      usernameClaim: 'email',
      groupsClaim: 'roles',
      roleMap: [
        { idpGroup: '/kb-admins', role: 'admin' },
        { idpGroup: '/kb-editors', role: 'editor' },
      ],
      groupMap: [
        { idpGroup: '/staff/eng', kbGroup: 'engineering' },
        { idpGroup: 'cn=ops', kbGroup: 'ops' },
      ],
    });
    expect(google).toMatchObject({ id: 'google', clientSecret: undefined, name: 'Google' });
  });

  it.each([
    [{ KB_PUBLIC_URL: '' }, 'KB_PUBLIC_URL'],
    [{ OIDC_PROVIDERS: 'key-cloak' }, 'OIDC_PROVIDERS'],
    [{ OIDC_PROVIDERS: 'keycloak,KEYCLOAK' }, 'OIDC_PROVIDERS'],
    [{ OIDC_KEYCLOAK_ISSUER: '' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_ISSUER: 'http://login.example.com' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_ISSUER: 'not a url' }, 'OIDC_KEYCLOAK_ISSUER'],
    [{ OIDC_KEYCLOAK_CLIENT_ID: '' }, 'OIDC_KEYCLOAK_CLIENT_ID'],
    [{ OIDC_KEYCLOAK_SCOPES: 'profile email' }, 'OIDC_KEYCLOAK_SCOPES'],
    [{ OIDC_KEYCLOAK_USERNAME_CLAIM: 'a claim' }, 'OIDC_KEYCLOAK_USERNAME_CLAIM'],
    [{ OIDC_KEYCLOAK_ROLE_MAP: 'admins=owner' }, 'OIDC_KEYCLOAK_ROLE_MAP'],
    [{ OIDC_KEYCLOAK_ROLE_MAP: 'admins' }, 'OIDC_KEYCLOAK_ROLE_MAP'],
    [{ OIDC_KEYCLOAK_GROUP_MAP: 'eng=bad name' }, 'OIDC_KEYCLOAK_GROUP_MAP'],
  ])('refuses %j naming %s', (change, variable) => {
    expect(failure({ ...OIDC_BASE, ...change }).variable).toBe(variable);
  });

  it('allows plain http only for a provider on this machine', () => {
    const [provider] = loadConfig({
      ...OIDC_BASE,
      OIDC_KEYCLOAK_ISSUER: 'http://127.0.0.1:8080/',
    }).oidc.providers;
    expect(provider.issuer).toBe('http://127.0.0.1:8080/');
  });

  it('reads COMMENTS: readers by default, editors when set, anything else stops the start', () => {
    expect(loadConfig({}).comments).toEqual({ who: 'readers' });
    expect(loadConfig({ COMMENTS: 'editors' }).comments).toEqual({ who: 'editors' });
    expect(failure({ COMMENTS: 'everyone' })).toEqual({
      variable: 'COMMENTS',
      message: 'Invalid configuration: COMMENTS must be one of readers, editors, got "everyone"',
    });
  });
});

const LDAP_BASE = {
  LDAP_URL: 'ldaps://ldap.example.org',
  LDAP_SEARCH_BASE: 'ou=people,dc=example,dc=org',
};

describe('LDAP and sign-in policy configuration', () => {
  it('has no directory unless LDAP_URL is set, and local passwords on', () => {
    const config = loadConfig({});
    expect(config.ldap.directory).toBeNull();
    expect(config.loginPolicy).toEqual({
      localLogin: true,
      localLoginAccounts: [],
      linkByEmail: false,
    });
  });

  it('reads the directory with its defaults, and maps by group DN or name', () => {
    const ldap = loadConfig({
      ...LDAP_BASE,
      LDAP_ROLE_MAP: 'CN=Admins, OU=Groups,DC=example,DC=org=admin; editors=editor',
      LDAP_GROUP_MAP: 'eng=Engineering',
    }).ldap.directory;
    expect(ldap).toMatchObject({
      url: 'ldaps://ldap.example.org',
      userFilter: '(uid={username})',
      groupsAttribute: 'memberOf',
      groupSearchBase: 'ou=people,dc=example,dc=org',
      startTls: false,
      connectTimeoutMs: 5000,
      timeoutMs: 5000,
      roleMap: [
        { idpGroup: 'cn=admins,ou=groups,dc=example,dc=org', role: 'admin' },
        { idpGroup: 'editors', role: 'editor' },
      ],
      groupMap: [{ idpGroup: 'eng', kbGroup: 'engineering' }],
    });
  });

  it('reads LOCAL_LOGIN=off with its break-glass accounts in canonical form', () => {
    expect(
      loadConfig({
        LOCAL_LOGIN: 'off',
        LOCAL_LOGIN_ACCOUNTS: 'Root-Admin, ops',
        SSO_LINK_BY_EMAIL: 'on',
      }).loginPolicy,
    ).toEqual({ localLogin: false, localLoginAccounts: ['root-admin', 'ops'], linkByEmail: true });
  });

  it.each([
    [{ LDAP_URL: 'http://ldap.example.org' }, 'LDAP_URL'],
    // Passwords in clear over a network.
    [{ LDAP_URL: 'ldap://ldap.example.org' }, 'LDAP_URL'],
    [{ LDAP_URL: 'ldaps://ldap.example.org', LDAP_STARTTLS: 'on' }, 'LDAP_STARTTLS'],
    [{ LDAP_STARTTLS: 'maybe' }, 'LDAP_STARTTLS'],
    [{ LDAP_SEARCH_BASE: '' }, 'LDAP_SEARCH_BASE'],
    [{ LDAP_USER_FILTER: '(uid=alice)' }, 'LDAP_USER_FILTER'],
    [{ LDAP_USER_FILTER: 'uid={username}' }, 'LDAP_USER_FILTER'],
    [{ LDAP_BIND_DN: 'cn=kb,dc=example,dc=org' }, 'LDAP_BIND_PASSWORD'],
    [{ LDAP_CA_FILE: '/nonexistent/ca.pem' }, 'LDAP_CA_FILE'],
    [{ LDAP_ROLE_MAP: 'cn=admins,dc=example,dc=org=owner' }, 'LDAP_ROLE_MAP'],
    [{ LDAP_TIMEOUT_MS: '0' }, 'LDAP_TIMEOUT_MS'],
    [{ LOCAL_LOGIN: 'off' }, 'LOCAL_LOGIN_ACCOUNTS'],
    [{ SSO_LINK_BY_EMAIL: 'sometimes' }, 'SSO_LINK_BY_EMAIL'],
  ])('refuses %j naming %s', (change, variable) => {
    expect(failure({ ...LDAP_BASE, ...change }).variable).toBe(variable);
  });

  it('allows plain ldap:// on this machine, and StartTLS elsewhere', () => {
    expect(
      loadConfig({ ...LDAP_BASE, LDAP_URL: 'ldap://127.0.0.1:3389' }).ldap.directory?.url,
    ).toBe('ldap://127.0.0.1:3389');
    expect(
      loadConfig({ ...LDAP_BASE, LDAP_URL: 'ldap://dc1.corp.example', LDAP_STARTTLS: 'on' }).ldap
        .directory?.startTls,
    ).toBe(true);
  });
});
