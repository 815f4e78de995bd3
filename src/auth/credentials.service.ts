import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../common/auth/auth-user';
import { AuthCache } from './auth-cache';
import { UserEntity } from './entities/user.entity';
import { sha256Hex, TOKEN_PREFIX } from './secrets';
import { narrowerRole } from '../common/auth/roles';
import { OAuthRecordsRepository } from './oauth/oauth-records.repository';
import { AuthGenerationRepository } from './store/auth-generation.repository';
import { SessionsService } from './sessions.service';
import { TokensService } from './tokens.service';
import { UsersService } from './users.service';

/** oidc-provider's opaque access tokens: 256 random bits as 43 base64url characters. */
const OAUTH_ACCESS_TOKEN = /^[A-Za-z0-9_-]{43}$/;

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
    private readonly generations: AuthGenerationRepository,
    private readonly oauth: OAuthRecordsRepository,
  ) {}

  /** Reads the credentials generation (when caching) so the cache forgets what it outdated. */
  private async observeGeneration(): Promise<number | undefined> {
    if (!this.cache.enabled) return undefined;
    const generation = await this.generations.current();
    this.cache.observe(generation);
    return generation;
  }

  async fromSession(secret: string): Promise<AuthUser | null> {
    const key = `session:${sha256Hex(secret)}`;
    const generation = await this.observeGeneration();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const session = await this.sessions.findLive(secret);
    if (!session) return null;
    const user = await this.users.findActiveById(session.userId);
    if (!user) return null;
    const authUser = { ...toAuthUser(user, 'session', user.role), sessionId: session.id };
    this.cache.set(key, authUser, this.sessions.validUntil(session), undefined, generation);
    return authUser;
  }

  async fromBearer(secret: string): Promise<AuthUser | null> {
    if (OAUTH_ACCESS_TOKEN.test(secret)) return this.fromOAuthToken(secret);
    if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
    const key = `bearer:${sha256Hex(secret)}`;
    const generation = await this.observeGeneration();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const token = await this.tokens.findLive(secret);
    if (!token) return null;
    const user = await this.users.findActiveById(token.userId);
    if (!user) return null;
    const authUser = {
      ...toAuthUser(user, 'bearer', this.tokens.effectiveRole(token, user.role)),
      tokenId: token.id,
      ...(token.paths ? { paths: token.paths } : {}),
      ...(token.permissions ? { permissions: token.permissions } : {}),
    };
    const validUntil = token.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER;
    this.cache.set(key, authUser, validUntil, undefined, generation);
    return authUser;
  }

  /**
   * An access token kb's authorization server issued: it acts as the person who authorised the
   * app, with the role of the grant capped by the person's. Never cached, so a revocation or a
   * ban ends it at the next request.
   */
  private async fromOAuthToken(secret: string): Promise<AuthUser | null> {
    const access = await this.oauth.findAccess(secret);
    if (!access) return null;
    const user = await this.users.findActiveById(access.accountId);
    if (!user) return null;
    return {
      ...toAuthUser(user, 'bearer', narrowerRole(access.scope.role, user.role)),
      oauthClientId: access.clientId,
      oauthGrantId: access.grantId,
      ...(access.scope.paths ? { paths: access.scope.paths } : {}),
    };
  }

  forgetSession(sessionId: string): void {
    this.cache.delete(`session:${sessionId}`);
  }
}
