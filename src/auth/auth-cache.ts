import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';
import type { AuthUser } from '../common/auth/auth-user';

interface Entry {
  user: AuthUser;
  /** When the credential itself stops being valid (ms since epoch). */
  validUntil: number;
  /** When this cache entry must be re-read from the database. */
  cachedUntil: number;
}

/**
 * Resolved credentials kept for a few seconds so a request costs one small read (the
 * credentials generation) instead of the session/token, user and group queries.
 * Every change that can invalidate a credential (logout, revoke, disable, role or group
 * change) counts the generation up in the database; an instance that sees a new generation
 * (`observe`) drops its whole cache, so the change takes effect on every instance at the next
 * request. Entries resolved under an older generation are never stored.
 */
@Injectable()
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private generation = -1;
  private static readonly MAX_ENTRIES = 10_000;

  constructor(@InjectConfig('auth') config: Pick<AuthConfig, 'cacheSeconds'>) {
    this.ttlMs = config.cacheSeconds * 1000;
  }

  /** False with AUTH_CACHE_SECONDS=0: nothing is kept, so there is nothing to check. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The credentials generation read for this request: a new one empties the cache. */
  observe(generation: number): void {
    if (generation === this.generation) return;
    this.entries.clear();
    this.generation = generation;
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

  /** Keeps `user`, resolved under `generation` (ignored when that is no longer current). */
  set(
    key: string,
    user: AuthUser,
    validUntil: number,
    now = Date.now(),
    generation = this.generation,
  ): void {
    if (this.ttlMs === 0 || generation !== this.generation) return;
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
