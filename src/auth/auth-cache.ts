import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../common/config/app-config';
import type { AuthUser } from '../common/auth/auth-user';

interface Entry {
  user: AuthUser;
  /** When the credential itself stops being valid (ms since epoch). */
  validUntil: number;
  /** When this cache entry must be re-read from the database. */
  cachedUntil: number;
}

/**
 * Resolved credentials kept for a few seconds so a read doesn't cost an extra query.
 * Changes on this instance (logout, revoke, disable, role or group change) invalidate at once;
 * other instances see them within AUTH_CACHE_SECONDS.
 */
@Injectable()
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private static readonly MAX_ENTRIES = 10_000;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ttlMs = config.authCacheSeconds * 1000;
  }

  get(key: string, now = Date.now()): AuthUser | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now >= entry.cachedUntil || now >= entry.validUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.user;
  }

  set(key: string, user: AuthUser, validUntil: number, now = Date.now()): void {
    if (this.ttlMs === 0) return;
    if (this.entries.size >= AuthCache.MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { user, validUntil, cachedUntil: now + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  invalidateUser(userId: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.user.id === userId) this.entries.delete(key);
    }
  }
}
