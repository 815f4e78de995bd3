import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { Env, IntRange, readGroup, Rule, urlProblem } from './env-schema';
import type { Env as EnvVars } from './env-values';

const MIB = 1024 * 1024;
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Express reads a string "trust proxy" value as a list of addresses, so "true" and "1" must be
 * turned into a boolean and a hop count; anything else must be addresses or subnets.
 */
function trustProxyProblem(raw: string): string | undefined {
  if (raw === 'true' || raw === 'false' || /^\d+$/.test(raw)) return undefined;
  for (const part of raw.split(',').map((p) => p.trim())) {
    const [address, bits, ...rest] = part.split('/');
    const valid =
      rest.length === 0 &&
      (PROXY_NAMES.has(part) ||
        (isIP(address) !== 0 &&
          (bits === undefined ||
            (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128)))));
    if (!valid) {
      return `must be true, false, a hop count, or addresses/subnets such as loopback or 10.0.0.0/8, got "${part}"`;
    }
  }
  return undefined;
}

function publicUrlProblem(raw: string): string | undefined {
  const problem = urlProblem(raw, ['http:', 'https:']);
  if (problem) return problem;
  const parsed = new URL(raw);
  return parsed.search || parsed.hash || parsed.username || parsed.password
    ? `must be a base address such as https://wiki.example.com, without query, fragment or credentials, got "${raw}"`
    : undefined;
}

/** The listener, the address kb is reached at, and what it accepts from proxies and browsers. */
export class HttpConfig {
  @Env('PORT', 'int') @IntRange(0, 65535) port = 3000;

  @Env('HOST') host = '0.0.0.0';

  /**
   * KB_PUBLIC_URL: the address users reach kb at (`https://wiki.example.com`, maybe with a path),
   * without a trailing slash: links in PDFs and sign-in callbacks point there. Unset: the address
   * of the request.
   */
  @Env('KB_PUBLIC_URL')
  @Rule((v?: string) => (v === undefined ? undefined : publicUrlProblem(v)))
  publicUrl?: string;

  /**
   * TRUST_PROXY: trust X-Forwarded-* from a proxy, as Express's "trust proxy" setting: false,
   * true, a hop count, or a list of addresses/subnets (`loopback`, `10.0.0.0/8`, ...).
   */
  @Env('TRUST_PROXY')
  @Rule((v: unknown) => (typeof v === 'string' ? trustProxyProblem(v) : undefined))
  trustProxy: boolean | number | string = false;

  /** KB_ALLOWED_ORIGINS: extra origins allowed to make cookie-authenticated unsafe requests. */
  @Env('KB_ALLOWED_ORIGINS', 'list')
  @Rule((origins: string[]) => {
    const bad = origins.find((origin) => !/^https?:\/\/[^/\s]+$/.test(origin));
    return bad === undefined
      ? undefined
      : `must list origins like https://wiki.example.com, got "${bad}"`;
  })
  allowedOrigins: string[] = [];

  @Env('JSON_BODY_LIMIT_BYTES', 'int') @IntRange(1024, 100 * MIB) jsonBodyLimitBytes = 5 * MIB;

  /** KB_CONSOLE_DIR: the built console's folder; default dist/console/public. */
  @Env('KB_CONSOLE_DIR') consoleDir?: string;

  /** SHUTDOWN_DELAY_SECONDS: on SIGTERM, how long /readyz answers 503 before the listener closes. */
  @Env('SHUTDOWN_DELAY_SECONDS', 'int') @IntRange(0, 300) shutdownDelaySeconds = 0;

  /** SHUTDOWN_TIMEOUT_SECONDS: on SIGTERM, how long requests in flight may take to finish. */
  @Env('SHUTDOWN_TIMEOUT_SECONDS', 'int') @IntRange(1, 3600) shutdownTimeoutSeconds = 25;
}

export function httpConfig(env: EnvVars): HttpConfig {
  const http = readGroup(HttpConfig, env);
  const proxy = http.trustProxy;
  if (typeof proxy === 'string') {
    http.trustProxy =
      proxy === 'true'
        ? true
        : proxy === 'false'
          ? false
          : /^\d+$/.test(proxy)
            ? Number(proxy)
            : proxy;
  }
  if (http.publicUrl !== undefined) {
    const parsed = new URL(http.publicUrl);
    http.publicUrl = `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`;
  }
  if (http.consoleDir !== undefined) http.consoleDir = resolve(http.consoleDir);
  return http;
}
