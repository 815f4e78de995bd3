import type { Role } from './roles';
import type { TokenPermission } from './token-scope';

/** The signed-in caller, resolved once per request by the global guard. */
export interface AuthUser {
  id: string;
  username: string;
  displayName: string;
  /** Effective role: the owner's role, narrowed by a token's scope. */
  role: Role;
  /** Names of the groups the user belongs to. */
  groups: string[];
  via: 'session' | 'bearer';
  sessionId?: string;
  tokenId?: string;
  /** A path-scoped credential's slug patterns (common/auth/token-scope.ts); absent: every page. */
  paths?: string[];
  /** A verb-limited credential's verbs; absent: every verb. */
  permissions?: TokenPermission[];
  /** An OAuth access token's app (client_id) and grant (docs/oauth.md). */
  oauthClientId?: string;
  oauthGrantId?: string;
}

export function isAdmin(user: AuthUser): boolean {
  return user.role === 'admin';
}
