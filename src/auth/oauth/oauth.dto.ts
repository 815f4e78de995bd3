import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsString, Length } from 'class-validator';
import { MAX_TOKEN_PATHS, MAX_TOKEN_PATH_LENGTH } from '../../common/auth/token-scope';
import { Optional } from '../../common/problems/optional';
import { ROLES, type Role } from '../../common/auth/roles';
import { listOf } from '../../common/openapi/list-of';
import { OAUTH_SCOPE_NAMES } from './oauth-base';

const DATE_TIME = { type: String, format: 'date-time' } as const;

export class OAuthClientRef {
  @ApiProperty({ description: 'The client_id the app registered with.' })
  id: string;

  @ApiProperty({ description: 'The name the app gave itself (client_name), or its client_id.' })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: "The app's home page (client_uri)." })
  uri: string | null;
}

export class OAuthScopeItem {
  @ApiProperty({ enum: OAUTH_SCOPE_NAMES })
  name: string;

  @ApiProperty()
  description: string;

  @ApiProperty({
    description: "False when the scope is wider than the person's role: not granted.",
  })
  granted: boolean;
}

/** What the consent screen shows. */
export class OAuthRequestResponse {
  @ApiProperty()
  uid: string;

  @ApiProperty({ type: OAuthClientRef })
  client: OAuthClientRef;

  @ApiProperty({ description: 'Where the app receives the answer.' })
  redirectUri: string;

  @ApiProperty({ type: [OAuthScopeItem] })
  scopes: OAuthScopeItem[];

  @ApiProperty({ enum: ROLES, enumName: 'Role', description: 'The role the app would act with.' })
  role: Role;
}

export class OAuthDecisionDto {
  @ApiProperty({ enum: ['approve', 'deny'] })
  @IsString()
  @IsIn(['approve', 'deny'])
  decision: 'approve' | 'deny';

  @ApiPropertyOptional({
    type: [String],
    example: ['docs/team-a/**'],
    maxItems: MAX_TOKEN_PATHS,
    description:
      'Slug patterns the person limits the app to, as for a personal access token (`**`, a slug, or a slug and `/**`). Absent: every page the person sees.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TOKEN_PATHS)
  @IsString({ each: true })
  @Length(1, MAX_TOKEN_PATH_LENGTH, { each: true })
  paths?: string[];
}

export class OAuthDecisionResponse {
  @ApiProperty({ description: 'Where the browser goes next (back through kb to the app).' })
  redirectTo: string;
}

/**
 * What a grant allows: a role capped by the person's, and (issue 34 item 3) slug patterns; null
 * paths: the whole wiki the person sees.
 */
export class OAuthGrantScope {
  @ApiProperty({ enum: ROLES, enumName: 'Role' })
  role: Role;

  @ApiPropertyOptional({ type: [String], nullable: true })
  paths: string[] | null;
}

/** An app a person authorised. */
export class OAuthGrantResponse {
  @ApiProperty({ description: 'The grant id (revoke with DELETE /api/oauth/grants/{id}).' })
  id: string;

  @ApiProperty({ type: OAuthClientRef })
  client: OAuthClientRef;

  @ApiProperty({ type: OAuthGrantScope })
  scope: OAuthGrantScope;

  @ApiProperty({ type: String, nullable: true, description: 'Who authorised it.' })
  username: string | null;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  expiresAt: string | null;
}

export class OAuthGrantList extends listOf(OAuthGrantResponse) {}

/** A registered client, as administrators see it. */
export class OAuthClientResponse extends OAuthClientRef {
  @ApiProperty({ type: [String] })
  redirectUris: string[];

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({
    ...DATE_TIME,
    nullable: true,
    description: 'Set when an administrator banned it.',
  })
  bannedAt: string | null;

  @ApiProperty({ type: [OAuthGrantResponse], description: 'Who authorised it, and how.' })
  grants: OAuthGrantResponse[];
}

export class OAuthClientList extends listOf(OAuthClientResponse) {}
