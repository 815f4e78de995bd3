import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import {
  DEFAULT_RATE_LIMITS,
  parseRateLimit,
  RATE_LIMIT_CLASSES,
  RateLimits,
} from '../rate-limit/rate-limit-policy';
import { bool, ConfigError, Env, int, oneOf, str, url, urlList } from './env-values';
import { CollabConfig, collabConfig } from './collab-config';
import { OidcProviderConfig, oidcProviders } from './oidc-config';

export { ConfigError } from './env-values';

export type DbType = 'sqlite' | 'mysql';

/** The validated, typed configuration read once at start from environment variables. */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  dbType: DbType;
  /** SQLite file path (sqlite only). */
  sqlitePath: string;
  /** mysql://user:pass@host:port/db (mysql only). */
  databaseUrl?: string;
  /**
   * Read replicas (DATABASE_REPLICA_URLS, mysql only): lag-tolerant reads go there, except a
   * user's own reads within `replicaStickySeconds` of their last write.
   */
  replicaUrls: string[];
  /** DATABASE_REPLICA_STICKY_SECONDS: how long after a write that user reads from the primary. */
  replicaStickySeconds: number;
  /** Create the MySQL database at start when it does not exist (else kb stops and says how). */
  dbCreate: boolean;
  adminUsername: string;
  adminPassword?: string;
  /**
   * The address users reach kb at (`https://wiki.example.com`, maybe with a path), without a
   * trailing slash: links in PDFs point there. Unset: the address of the request.
   */
  publicUrl?: string;
  pdfServiceUrl?: string;
  pdfServiceTimeoutMs: number;
  /** Page numbers, title and date in the header and footer of every PDF. */
  pdfHeaderFooter: boolean;
  pdfServiceUsername?: string;
  pdfServicePassword?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /**
   * Trust X-Forwarded-* from a proxy, as Express's "trust proxy" setting: false, true, a hop
   * count, or a list of addresses/subnets (`loopback`, `10.0.0.0/8`, ...).
   */
  trustProxy: boolean | number | string;
  /** Extra origins allowed to make cookie-authenticated unsafe requests. */
  allowedOrigins: string[];
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  loginMaxFailures: number;
  loginIpMaxFailures: number;
  loginWindowSeconds: number;
  /** Live (unexpired) personal access tokens one person may hold (TOKEN_MAX_PER_USER, 20). */
  tokenMaxPerUser: number;
  jsonBodyLimitBytes: number;
  imageMaxBytes: number;
  attachmentMaxBytes: number;
  importMaxBytes: number;
  importMaxEntries: number;
  /** Days a finished import job's record is kept (IMPORT_JOB_RETENTION_DAYS). */
  importJobRetentionDays: number;
  /** Seconds an instance's claim on a running import job lasts without renewal. */
  importJobLeaseSeconds: number;
  /** Seconds a job handed back at shutdown waits for an instance holding its upload (IMPORT_JOB_RESUME_SECONDS). */
  importJobResumeSeconds: number;
  /**
   * How often stored media no row references and stale temp files are swept (seconds; 0: only
   * at start-up).
   */
  mediaSweepIntervalSeconds: number;
  /** A stored object or temp file younger than this is never swept (an import may be writing it). */
  mediaSweepGraceSeconds: number;
  draftMaxBytes: number;
  pageMaxBytes: number;
  /** Argon2 cost: 'default' for production, 'fast' only for tests. */
  passwordHashCost: 'default' | 'fast';
  reviewCheckIntervalSeconds: number;
  /** How long a resolved credential may be reused from the in-process cache. */
  authCacheSeconds: number;
  /**
   * Memory for serialised page responses kept per process (PAGE_CACHE_MB, default 64; 0 keeps
   * none): a page read whose page is there at its revision sends it without reading or
   * serialising the Markdown and HTML again (src/pages/page-response-cache.ts).
   */
  pageCacheBytes: number;
  /**
   * Worker threads with read-only SQLite connections for reads over many rows (KB_READ_WORKERS,
   * default 2; 0 runs them on the main thread). Unused on MySQL.
   */
  readWorkers: number;
  /**
   * Worker threads rendering Markdown for page writes and stale reads (KB_RENDER_WORKERS,
   * default 1, started with the first long page; 0 renders on the main thread).
   */
  renderWorkers: number;
  /**
   * HTTP worker processes (KB_WORKERS, node:cluster; default: the number of CPUs). 1 runs the
   * app in the started process itself, without a cluster.
   */
  workers: number;
  /** The built console's folder (KB_CONSOLE_DIR); default dist/console/public. */
  consoleDir?: string;
  webhooks: WebhookConfig;
  /** Per-caller request quotas by class (RATE_LIMIT_READ/WRITE/SEARCH/IMPORT). */
  rateLimits: RateLimits;
  /** How often an instance adds its counts to the shared counters and reads the others'. */
  rateLimitSyncMs: number;
  /** Redis for the shared counters (else the database). */
  redisUrl?: string;
  idempotency: IdempotencyConfig;
  /** Where media bytes live: `<dataDir>/media` (MEDIA_STORE=local) or an S3 bucket. */
  mediaStore: { kind: 'local' } | S3StoreConfig;
  /** On SIGTERM: how long /readyz answers 503 before the listener closes. */
  shutdownDelaySeconds: number;
  /** On SIGTERM: how long requests and streams in flight may take to finish. */
  shutdownTimeoutSeconds: number;
  /** MCP_ENABLED: the Model Context Protocol server at /mcp (off: /mcp answers 404). */
  mcpEnabled: boolean;
  /** OpenID Connect providers (OIDC_PROVIDERS, OIDC_<ID>_*): docs/sso.md. */
  oidcProviders: OidcProviderConfig[];
  /** Live co-editing at /collab (COLLAB_*): docs/collab.md. */
  collab: CollabConfig;
}

/** Idempotency-Key requests (IDEMPOTENCY_*). */
export interface IdempotencyConfig {
  /** How long a key and its stored answer live (24 h). */
  ttlSeconds: number;
  /** How long a retry waits for the first request with its key before answering 409. */
  waitMs: number;
  /** A first request that has not finished after this long is taken as dead: a retry runs again. */
  leaseSeconds: number;
}

/** Webhook deliveries (WEBHOOK_*). */
export interface WebhookConfig {
  /** The first retry waits this long; each further one twice as long as the one before. */
  retryBaseMs: number;
  /** Attempts per delivery before it is given up (`failed`; redeliver to try again). */
  maxAttempts: number;
  timeoutMs: number;
  /** How often the outbox is polled for due deliveries (new events go out at once). */
  pollMs: number;
  /** How often each process reads the event log for its open event streams (GET /api/events/stream). */
  streamPollMs: number;
  /** Deliver to private and loopback addresses (off: refused, as a server-side request forgery guard). */
  allowPrivate: boolean;
}

/** MEDIA_STORE=s3 and its S3_* variables. */
export interface S3StoreConfig {
  kind: 's3';
  /** Unset: AWS S3 of `region`; else a MinIO/S3-compatible address. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `http://host/bucket/key` addressing (MinIO and most S3-compatible servers need it). */
  forcePathStyle: boolean;
}

const MIB = 1024 * 1024;

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Express reads a string "trust proxy" value as a list of addresses, so "true" and "1" must be
 * turned into a boolean and a hop count here; anything else must be addresses or subnets.
 */
function trustProxy(env: Env): boolean | number | string {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  for (const part of raw.split(',').map((p) => p.trim())) {
    const [address, bits, ...rest] = part.split('/');
    const valid =
      rest.length === 0 &&
      (PROXY_NAMES.has(part) ||
        (isIP(address) !== 0 &&
          (bits === undefined ||
            (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128)))));
    if (!valid) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be true, false, a hop count, or addresses/subnets such as loopback or 10.0.0.0/8, got "${part}"`,
      );
    }
  }
  return raw;
}

/** KB_PUBLIC_URL: an http(s) base without query, fragment or credentials; no trailing slash. */
function publicUrl(env: Env): string | undefined {
  const raw = url(env, 'KB_PUBLIC_URL', ['http:', 'https:']);
  if (raw === undefined) return undefined;
  const parsed = new URL(raw);
  if (parsed.search || parsed.hash || parsed.username || parsed.password) {
    throw new ConfigError(
      'KB_PUBLIC_URL',
      `must be a base address such as https://wiki.example.com, without query, fragment or credentials, got "${raw}"`,
    );
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
}

function rateLimits(env: Env): RateLimits {
  const limits = {} as RateLimits;
  for (const cls of RATE_LIMIT_CLASSES) {
    const name = `RATE_LIMIT_${cls.toUpperCase()}`;
    const raw = str(env, name) ?? DEFAULT_RATE_LIMITS[cls];
    const parsed = parseRateLimit(raw);
    if (parsed === undefined)
      throw new ConfigError(
        name,
        `must be requests/window such as 1200/60s, or 0 (off), got "${raw}"`,
      );
    limits[cls] = parsed;
  }
  return limits;
}

function mediaStore(env: Env): AppConfig['mediaStore'] {
  if (oneOf(env, 'MEDIA_STORE', ['local', 's3'] as const, 'local') === 'local') {
    return { kind: 'local' };
  }
  const bucket = str(env, 'S3_BUCKET');
  if (!bucket || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      'S3_BUCKET',
      `must name a bucket when MEDIA_STORE=s3, got "${bucket ?? ''}"`,
    );
  }
  const accessKeyId = str(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = str(env, 'S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID',
      'must be set together with its pair (or neither, for the AWS default credentials)',
    );
  }
  return {
    kind: 's3',
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    region: str(env, 'S3_REGION') ?? 'us-east-1',
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const database = databaseConfig(env);
  const admin = adminAccount(env);
  const allowedOrigins = originList(env);
  const kbPublicUrl = publicUrl(env);
  return {
    port: int(env, 'PORT', 3000, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    ...database,
    ...admin,
    publicUrl: kbPublicUrl,
    ...pdfService(env),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['debug', 'info', 'warn', 'error', 'silent'] as const,
      'info',
    ),
    trustProxy: trustProxy(env),
    allowedOrigins,
    ...sessionsAndLogins(env),
    ...sizeLimits(env),
    ...backgroundWork(env),
    passwordHashCost: oneOf(env, 'PASSWORD_HASH_COST', ['default', 'fast'] as const, 'default'),
    authCacheSeconds: int(env, 'AUTH_CACHE_SECONDS', 5, 0, 300),
    pageCacheBytes: int(env, 'PAGE_CACHE_MB', 64, 0, 4096) * MIB,
    readWorkers: int(env, 'KB_READ_WORKERS', 2, 0, 64),
    renderWorkers: int(env, 'KB_RENDER_WORKERS', 1, 0, 64),
    workers: int(env, 'KB_WORKERS', availableParallelism(), 1, 256),
    consoleDir: str(env, 'KB_CONSOLE_DIR') && resolve(str(env, 'KB_CONSOLE_DIR')!),
    webhooks: webhookConfig(env),
    rateLimits: rateLimits(env),
    rateLimitSyncMs: int(env, 'RATE_LIMIT_SYNC_MS', 1000, 10, 60_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    idempotency: {
      ttlSeconds: int(env, 'IDEMPOTENCY_TTL_SECONDS', 86_400, 1, 30 * 86_400),
      waitMs: int(env, 'IDEMPOTENCY_WAIT_MS', 120_000, 0, 3_600_000),
      leaseSeconds: int(env, 'IDEMPOTENCY_LEASE_SECONDS', 900, 1, 86_400),
    },
    mediaStore: mediaStore(env),
    shutdownDelaySeconds: int(env, 'SHUTDOWN_DELAY_SECONDS', 0, 0, 300),
    shutdownTimeoutSeconds: int(env, 'SHUTDOWN_TIMEOUT_SECONDS', 25, 1, 3600),
    mcpEnabled: bool(env, 'MCP_ENABLED', true),
    oidcProviders: oidcProviders(env, kbPublicUrl),
    collab: collabConfig(env),
  };
}

function databaseConfig(env: Env) {
  const dataDir = resolve(str(env, 'KB_DATA_DIR') ?? './data');
  const dbType = oneOf(env, 'DB_TYPE', ['sqlite', 'mysql'] as const, 'sqlite');
  const databaseUrl = url(env, 'DATABASE_URL', ['mysql:', 'mariadb:']);
  if (dbType === 'mysql' && !databaseUrl) {
    throw new ConfigError(
      'DATABASE_URL',
      'is required when DB_TYPE=mysql (mysql://user:pass@host:3306/db)',
    );
  }
  return {
    dataDir,
    dbType,
    sqlitePath: resolve(dataDir, str(env, 'SQLITE_FILE') ?? 'kb.sqlite'),
    databaseUrl,
    replicaUrls: urlList(env, 'DATABASE_REPLICA_URLS', ['mysql:', 'mariadb:']),
    replicaStickySeconds: int(env, 'DATABASE_REPLICA_STICKY_SECONDS', 10, 0, 3600),
    dbCreate: bool(env, 'DB_CREATE', false),
  };
}

/** The first administrator, created at start when no user exists. */
function adminAccount(env: Env) {
  const adminUsername = str(env, 'KB_ADMIN_USERNAME') ?? 'admin';
  if (!/^[a-z0-9][a-z0-9._-]{1,63}$/i.test(adminUsername)) {
    throw new ConfigError('KB_ADMIN_USERNAME', 'must be 2-64 letters, digits, ".", "_" or "-"');
  }
  const adminPassword = str(env, 'KB_ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('KB_ADMIN_PASSWORD', 'must be at least 8 characters');
  }
  return { adminUsername: adminUsername.toLowerCase(), adminPassword };
}

function originList(env: Env): string[] {
  const origins = (str(env, 'KB_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        'KB_ALLOWED_ORIGINS',
        `must list origins like https://wiki.example.com, got "${origin}"`,
      );
    }
  }
  return origins;
}

function pdfService(env: Env) {
  return {
    pdfServiceUrl: url(env, 'PDF_SERVICE_URL', ['http:', 'https:']),
    pdfHeaderFooter: bool(env, 'PDF_HEADER_FOOTER', true),
    pdfServiceTimeoutMs: int(env, 'PDF_SERVICE_TIMEOUT_MS', 30_000, 100, 600_000),
    pdfServiceUsername: str(env, 'PDF_SERVICE_USERNAME'),
    pdfServicePassword: str(env, 'PDF_SERVICE_PASSWORD'),
  };
}

function sessionsAndLogins(env: Env) {
  return {
    sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 120, 1, 60 * 24 * 30),
    sessionAbsoluteHours: int(env, 'SESSION_ABSOLUTE_HOURS', 24 * 7, 1, 24 * 365),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000),
    loginIpMaxFailures: int(env, 'LOGIN_IP_MAX_FAILURES', 20, 1, 100_000),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900, 1, 86_400),
    tokenMaxPerUser: int(env, 'TOKEN_MAX_PER_USER', 20, 1, 10_000),
  };
}

/** Body and content sizes (bytes) and the import's entry count. */
function sizeLimits(env: Env) {
  const pageMaxBytes = int(env, 'PAGE_MAX_BYTES', 2 * MIB, 1024, 100 * MIB);
  return {
    jsonBodyLimitBytes: int(env, 'JSON_BODY_LIMIT_BYTES', 5 * MIB, 1024, 100 * MIB),
    imageMaxBytes: int(env, 'IMAGE_MAX_BYTES', 10 * MIB, 1, 1024 * MIB),
    attachmentMaxBytes: int(env, 'ATTACHMENT_MAX_BYTES', 50 * MIB, 1, 4096 * MIB),
    importMaxBytes: int(env, 'IMPORT_MAX_BYTES', 100 * MIB, 1, 1024 * MIB),
    importMaxEntries: int(env, 'IMPORT_MAX_ENTRIES', 20_000, 1, 1_000_000),
    // The largest page plus the text it started from (an editor keeps both to merge later),
    // and room for the editor's own members: 4.5 MiB by default, under the 5 MiB JSON body.
    draftMaxBytes: int(env, 'DRAFT_MAX_BYTES', 2 * pageMaxBytes + MIB / 2, 1, 200 * MIB),
    pageMaxBytes,
  };
}

/** Import jobs, the media sweep and the review check. */
function backgroundWork(env: Env) {
  return {
    importJobRetentionDays: int(env, 'IMPORT_JOB_RETENTION_DAYS', 7, 1, 3650),
    importJobLeaseSeconds: int(env, 'IMPORT_JOB_LEASE_SECONDS', 60, 2, 3600),
    importJobResumeSeconds: int(env, 'IMPORT_JOB_RESUME_SECONDS', 3600, 10, 7 * 86_400),
    mediaSweepIntervalSeconds: int(env, 'MEDIA_SWEEP_INTERVAL_SECONDS', 3600, 0, 7 * 86_400),
    mediaSweepGraceSeconds: int(env, 'MEDIA_SWEEP_GRACE_SECONDS', 3600, 1, 30 * 86_400),
    reviewCheckIntervalSeconds: int(env, 'REVIEW_CHECK_INTERVAL_SECONDS', 300, 0, 86_400),
  };
}

function webhookConfig(env: Env): WebhookConfig {
  return {
    retryBaseMs: int(env, 'WEBHOOK_RETRY_BASE_MS', 5000, 1, 86_400_000),
    maxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 10, 1, 100),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    pollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
    streamPollMs: int(env, 'EVENT_STREAM_POLL_MS', 500, 10, 60_000),
    allowPrivate: bool(env, 'WEBHOOK_ALLOW_PRIVATE', false),
  };
}

/** Injection token for AppConfig. */
export const APP_CONFIG = Symbol('APP_CONFIG');
