import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsISO8601,
  IsString,
  Length,
} from 'class-validator';
import {
  MAX_TOKEN_PATHS,
  MAX_TOKEN_PATH_LENGTH,
  TOKEN_PERMISSIONS,
  type TokenPermission,
} from '../../common/auth/token-scope';
import { Optional } from '../../common/problems/optional';
import { IsSafeText } from '../../common/text/safe-text';
import { ROLES, type Role } from '../../common/auth/roles';

export class CreateTokenDto {
  @ApiProperty({ example: 'ci-import', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  @IsSafeText()
  name: string;

  @ApiPropertyOptional({
    example: '2027-01-01T00:00:00Z',
    description: 'must be in the future; absent: never expires',
  })
  @Optional()
  @IsString()
  @IsISO8601({ strict: true })
  expiresAt?: string;

  @ApiPropertyOptional({
    enum: ROLES,
    description: "the widest role the token acts with; at most the owner's role (default)",
  })
  @Optional()
  @IsString()
  @IsIn(ROLES)
  scope?: Role;

  @ApiPropertyOptional({
    type: [String],
    example: ['docs/team-a/**'],
    maxItems: MAX_TOKEN_PATHS,
    description:
      'Slug patterns the token is limited to: `**` (every page), a slug (that page), or a slug and `/**` (that page and every page under it). Outside them the token sees nothing and changes nothing. Absent: every page.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TOKEN_PATHS)
  @IsString({ each: true })
  @Length(1, MAX_TOKEN_PATH_LENGTH, { each: true })
  paths?: string[];

  @ApiPropertyOptional({
    enum: TOKEN_PERMISSIONS,
    isArray: true,
    example: ['read', 'write'],
    description:
      'Verbs the token may use: `read` (GET routes, read tools), `write` (page changes, batches), `import`, `comment`. Absent: all of them.',
  })
  @Optional()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn(TOKEN_PERMISSIONS, { each: true })
  permissions?: TokenPermission[];
}
