import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';
import type { Tx } from '../common/database/database';
import type { CursorPosition } from '../common/http/pagination';
import { SessionEntity } from './entities/session.entity';
import { newSessionSecret, sha256Hex } from './secrets';
import { SessionsRepository } from './store/sessions.repository';

export const SESSION_COOKIE = 'kb_session';

/** lastSeenAt is written at most this often, so reads don't turn into writes. */
const TOUCH_INTERVAL_MS = 60_000;

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    @InjectConfig('auth') private readonly authConfig: AuthConfig,
  ) {}

  get absoluteMs(): number {
    return this.authConfig.sessionAbsoluteHours * 3_600_000;
  }

  get idleMs(): number {
    return this.authConfig.sessionIdleMinutes * 60_000;
  }

  /**
   * Starts a session; returns the cookie value (the database keeps only its hash). `method`
   * says how the person signed in (`password`, `ldap`, `oidc:<id>`, …).
   */
  async start(
    userId: string,
    ip: string | undefined,
    userAgent: string | undefined,
    method = 'password',
  ): Promise<{ secret: string; session: SessionEntity }> {
    const secret = newSessionSecret();
    const now = new Date();
    const session = await this.sessions.insert(
      Object.assign(new SessionEntity(), {
        id: sha256Hex(secret),
        userId,
        createdAt: now,
        lastSeenAt: now,
        expiresAt: new Date(now.getTime() + this.absoluteMs),
        ip: ip?.slice(0, 64) ?? null,
        userAgent: userAgent?.slice(0, 255) ?? null,
        method: method.slice(0, 80),
      }),
    );
    return { secret, session };
  }

  /** The live session for a cookie value, or null when unknown, idle too long or past its end. */
  async findLive(secret: string, now = new Date()): Promise<SessionEntity | null> {
    const session = await this.sessions.findById(sha256Hex(secret));
    if (!session) return null;
    if (!this.isLive(session, now)) {
      await this.sessions.delete(session.id);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      session.lastSeenAt = now;
      await this.sessions.touch(session.id, now);
    }
    return session;
  }

  isLive(session: SessionEntity, now = new Date()): boolean {
    return (
      session.expiresAt.getTime() > now.getTime() &&
      session.lastSeenAt.getTime() + this.idleMs > now.getTime()
    );
  }

  /** When the session stops being valid if nothing touches it. */
  validUntil(session: SessionEntity): number {
    return Math.min(session.expiresAt.getTime(), session.lastSeenAt.getTime() + this.idleMs);
  }

  /** A user's live sessions, most recently seen first. */
  listLiveOf(
    userId: string,
    after: CursorPosition | undefined,
    limit: number,
    now = new Date(),
  ): Promise<SessionEntity[]> {
    const seenSince = new Date(now.getTime() - this.idleMs);
    return this.sessions.listOfUser(userId, { now, seenSince }, after, limit);
  }

  /** Ends one of a user's sessions; false when they have none with that id. */
  endOneOf(userId: string, sessionId: string): Promise<boolean> {
    return this.sessions.deleteOfUserById(userId, sessionId);
  }

  async end(sessionId: string): Promise<void> {
    await this.sessions.delete(sessionId);
  }

  /**
   * Ends every session of a user, or all but `keep` (the one making the request); answers how
   * many ended. `tx` joins the caller's transaction.
   */
  async endAllOf(userId: string, keep?: string, tx?: Tx): Promise<number> {
    return this.sessions.deleteOfUser(userId, tx, keep);
  }

  async purgeExpired(now = new Date()): Promise<void> {
    await this.sessions.deleteExpired(now, new Date(now.getTime() - this.idleMs));
  }
}
