import type { AuthUser } from '../common/auth/auth-user';
import type { AccessTokenEntity } from './entities/access-token.entity';
import type { GroupEntity } from './entities/group.entity';
import type { UserEntity } from './entities/user.entity';
import type { SessionEntity } from './entities/session.entity';
import type {
  AccountResponse,
  GroupResponse,
  MeResponse,
  SessionResponse,
  TokenResponse,
  UserResponse,
} from './dto/auth-response.dto';
import { NO_PASSWORD } from './no-password';
import { describeBrowser } from './user-agent';

// The response shapes (and their OpenAPI schemas) are in dto/auth-response.dto.ts.
export type {
  AccountResponse,
  GroupResponse,
  SessionResponse,
  MeResponse,
  TokenResponse,
  UserResponse,
} from './dto/auth-response.dto';

export function toMeResponse(user: AuthUser): MeResponse {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    role: user.role,
    groups: user.groups,
  };
}

/** A stored user as `GET /api/me` answers them (their own role: no token narrows it). */
export function toAccountResponse(user: UserEntity): MeResponse {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    role: user.role,
    groups: (user.groups ?? []).map((g) => g.name).sort(),
  };
}

/** The caller's own account as stored, for the Account screen. */
export function toAccountDetails(user: UserEntity): AccountResponse {
  return {
    ...toAccountResponse(user),
    email: user.email ?? null,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * `locked`: the account's sign-in throttle is holding it (LoginThrottleService.lockedAccounts);
 * `providers`: the sign-in identities linked to it (`ldap`, `oidc:<id>`); `twoFactor`: its factors.
 */
export function toUserResponse(
  user: UserEntity,
  locked = false,
  providers: string[] = [],
  twoFactor = { totp: false, passkeys: 0 },
): UserResponse {
  return {
    ...toAccountResponse(user),
    email: user.email ?? null,
    lastLoginAt: user.lastLoginAt?.toISOString() ?? null,
    // `local`: the account has a password of kb's own (SSO-provisioned ones have none).
    signIn: [...(user.passwordHash !== NO_PASSWORD ? ['local'] : []), ...providers],
    locked,
    disabled: user.disabled,
    twoFactor,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export function toGroupResponse(group: GroupEntity): GroupResponse {
  return { id: group.id, name: group.name, createdAt: group.createdAt.toISOString() };
}

export function toTokenResponse(token: AccessTokenEntity): TokenResponse {
  return {
    id: token.id,
    name: token.name,
    prefix: token.prefix,
    scope: token.scope,
    paths: token.paths,
    permissions: token.permissions,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    createdAt: token.createdAt.toISOString(),
  };
}

export function toSessionResponse(session: SessionEntity, currentId?: string): SessionResponse {
  return {
    id: session.id,
    current: session.id === currentId,
    browser: describeBrowser(session.userAgent),
    ip: session.ip,
    userAgent: session.userAgent,
    method: session.method,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
  };
}
