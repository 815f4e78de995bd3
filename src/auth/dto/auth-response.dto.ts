import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '../../common/auth/roles';
import { listOf } from '../../common/openapi/list-of';

/** The account answers built by auth.mapper.ts, with their OpenAPI schemas. */

const DATE_TIME = { type: String, format: 'date-time' } as const;
const ROLE = { enum: ROLES, enumName: 'Role' } as const;

/** A user as other answers name them (an uploader, who caused a notice). */
export class UserRefResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  username: string;

  @ApiProperty()
  displayName: string;
}

export class MeResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ada' })
  username: string;

  @ApiProperty({ example: 'Ada Lovelace' })
  displayName: string;

  @ApiProperty({ ...ROLE, description: "The caller's role, narrowed by a token's scope." })
  role: Role;

  @ApiProperty({ type: [String], description: 'Group names.' })
  groups: string[];
}

/** GET /api/me/account: the caller's own account as stored (what the Account screen edits). */
export class AccountResponse extends MeResponse {
  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'The last sign-in; null: none known.' })
  lastLoginAt: string | null;

  @ApiProperty(DATE_TIME)
  createdAt: string;
}

export class UserFactors {
  @ApiProperty({ description: 'TOTP (an authenticator app) is on.' })
  totp: boolean;

  @ApiProperty({ type: 'integer', description: 'Registered passkeys.' })
  passkeys: number;
}

export class UserResponse extends MeResponse {
  @ApiProperty({ type: String, nullable: true, example: 'ada@example.com' })
  email: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'The last sign-in; null: none known.' })
  lastLoginAt: string | null;

  @ApiProperty({
    type: [String],
    example: ['local', 'ldap'],
    description:
      'How the person can sign in: `local` (a password kept by kb), `ldap`, `oidc:<id>` (identities linked at their sign-ins).',
  })
  signIn: string[];

  @ApiProperty({
    description:
      'Too many failed sign-ins: the account cannot sign in until its window ends or an administrator unlocks it (POST /api/users/{id}/unlock).',
  })
  locked: boolean;

  @ApiProperty({ description: 'A disabled account cannot sign in; its tokens stop working.' })
  disabled: boolean;

  @ApiProperty({
    type: UserFactors,
    description: 'The second factors the user has (POST /api/users/{id}/two-factor/reset).',
  })
  twoFactor: UserFactors;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty(DATE_TIME)
  updatedAt: string;
}

export class UserList extends listOf(UserResponse) {}

export class GroupResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'engineering' })
  name: string;

  @ApiProperty(DATE_TIME)
  createdAt: string;
}

export class GroupList extends listOf(GroupResponse) {}

export class TokenResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ci-import' })
  name: string;

  @ApiProperty({ description: 'The first characters of the secret, to recognise it.' })
  prefix: string;

  @ApiProperty({ ...ROLE, description: 'The widest role the token acts with.' })
  scope: Role;

  @ApiProperty({ ...DATE_TIME, nullable: true, description: 'null: never expires.' })
  expiresAt: string | null;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  lastUsedAt: string | null;

  @ApiProperty(DATE_TIME)
  createdAt: string;
}

export class TokenList extends listOf(TokenResponse) {}

export class CreatedTokenResponse extends TokenResponse {
  @ApiProperty({
    description:
      'The secret (`kb_pat_...`), shown only in this answer: send it as `Authorization: Bearer <token>`.',
  })
  token: string;
}

/** One of the caller's browser sessions (GET /api/me/sessions). */
export class SessionResponse {
  @ApiProperty({
    description:
      'Names the session in DELETE /api/me/sessions/{id} (not its cookie: it signs nobody in).',
  })
  id: string;

  @ApiProperty({ description: 'The session making this request.' })
  current: boolean;

  @ApiProperty({ example: 'Chrome on Linux', description: 'Read from the User-Agent at sign-in.' })
  browser: string;

  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7' })
  ip: string | null;

  @ApiProperty({ type: String, nullable: true })
  userAgent: string | null;

  @ApiProperty({
    example: 'password+totp',
    description:
      'How the session was made: `password`, `password+totp`, `password+recovery_code`, `password+passkey`, `passkey`, `ldap`, `ldap+totp` (and the other second factors after `ldap`), `oidc:<id>`, `saml:<id>`.',
  })
  method: string;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty(DATE_TIME)
  lastSeenAt: string;
}

export class SessionList extends listOf(SessionResponse) {}

/** POST /api/me/password's answer. */
export class PasswordChangedResponse {
  @ApiProperty({ type: 'integer', description: 'Your other browser sessions that were ended.' })
  sessionsEnded: number;
}
