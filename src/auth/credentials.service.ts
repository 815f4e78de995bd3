import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { AuthCache } from './auth-cache';
import { UserEntity } from './entities/user.entity';
import { sha256Hex, TOKEN_PREFIX } from './secrets';
import { SessionsService } from './sessions.service';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

function toAuthUser(user: UserEntity, via: AuthUser['via'], role: AuthUser['role']): AuthUser {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    role,
    groups: (user.groups ?? []).map((g) => g.name).sort(),
    via,
  };
}

/** Turns a session cookie or a bearer token into the caller, or null when it is not valid. */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly cache: AuthCache,
  ) {}

  async fromSession(secret: string): Promise<AuthUser | null> {
    const key = `session:${sha256Hex(secret)}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const session = await this.sessions.findLive(secret);
    if (!session) return null;
    const user = await this.users.findActiveById(session.userId);
    if (!user) return null;
    const authUser = { ...toAuthUser(user, 'session', user.role), sessionId: session.id };
    this.cache.set(key, authUser, this.sessions.validUntil(session));
    return authUser;
  }

  async fromBearer(secret: string): Promise<AuthUser | null> {
    if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
    const key = `bearer:${sha256Hex(secret)}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const token = await this.tokens.findLive(secret);
    if (!token) return null;
    const user = await this.users.findActiveById(token.userId);
    if (!user) return null;
    const authUser = {
      ...toAuthUser(user, 'bearer', this.tokens.effectiveRole(token, user.role)),
      tokenId: token.id,
    };
    this.cache.set(key, authUser, token.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER);
    return authUser;
  }

  forgetSession(sessionId: string): void {
    this.cache.delete(`session:${sessionId}`);
  }
}
