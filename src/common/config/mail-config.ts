import { parseRateLimit, type RateLimitQuota } from '../rate-limit/rate-limit-policy';
import { ConfigError, Env, int, str, url } from './env-values';

/** Email (SMTP_URL, MAIL_FROM, ...): invitations, password resets, digests; see docs/auth.md. */
export interface MailConfig {
  /** Where mail goes: `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://` (TLS). */
  smtpUrl?: string;
  /** The sender: `kb <kb@example.com>` or a bare address. */
  from: string;
  /**
   * How often the inbox digest runs (MAIL_DIGEST_INTERVAL_SECONDS, default a day); 0: no
   * schedule (a run started by hand, DigestService.runIfDue, counts for a day).
   */
  digestIntervalSeconds: number;
  /** Reset requests per address (PASSWORD_RESET_LIMIT_ADDRESS, default 3/3600s). */
  resetLimitPerAddress: RateLimitQuota | null;
  /** Reset requests per client address (PASSWORD_RESET_LIMIT_CLIENT, default 20/3600s). */
  resetLimitPerClient: RateLimitQuota | null;
}

function quota(env: Env, name: string, fallback: string): RateLimitQuota | null {
  const raw = str(env, name) ?? fallback;
  const parsed = parseRateLimit(raw);
  if (parsed === undefined) {
    throw new ConfigError(
      name,
      `must be <requests>/<seconds>s (e.g. ${fallback}) or 0, got "${raw}"`,
    );
  }
  return parsed;
}

/** A bare address or `Name <address>`; the address must look like one. */
function sender(env: Env, required: boolean): string {
  const raw = str(env, 'MAIL_FROM');
  if (raw === undefined) {
    if (required) {
      throw new ConfigError('MAIL_FROM', 'is required with SMTP_URL (e.g. "kb <kb@example.com>")');
    }
    return 'kb <kb@localhost>';
  }
  const address = /<([^<>]+)>\s*$/.exec(raw)?.[1] ?? raw;
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(address) || /[\r\n]/.test(raw)) {
    throw new ConfigError('MAIL_FROM', `must be an address or "Name <address>", got "${raw}"`);
  }
  return raw;
}

export function mailConfig(env: Env, publicUrl: string | undefined): MailConfig {
  const smtpUrl = url(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  if (smtpUrl !== undefined && publicUrl === undefined) {
    throw new ConfigError(
      'KB_PUBLIC_URL',
      'is required with SMTP_URL (the links in invitations and password resets are built from it)',
    );
  }
  if (smtpUrl !== undefined && !new URL(smtpUrl).hostname) {
    throw new ConfigError(
      'SMTP_URL',
      'must name a host, e.g. smtp://user:pass@mail.example.com:587',
    );
  }
  return {
    smtpUrl,
    from: sender(env, smtpUrl !== undefined),
    digestIntervalSeconds: int(env, 'MAIL_DIGEST_INTERVAL_SECONDS', 86_400, 0, 31 * 86_400),
    resetLimitPerAddress: quota(env, 'PASSWORD_RESET_LIMIT_ADDRESS', '3/3600s'),
    resetLimitPerClient: quota(env, 'PASSWORD_RESET_LIMIT_CLIENT', '20/3600s'),
  };
}
