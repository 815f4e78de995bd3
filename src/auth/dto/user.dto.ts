import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { Optional } from '../../common/problems/optional';
import { canonicalUsername, IsUsernameText } from '../../common/text/username';
import { ROLES, type Role } from '../../common/auth/roles';
import { IsSafeText } from '../../common/text/safe-text';
import { DisplayNameField, EmailField, NewPasswordField } from './account-fields';
import { ListQueryDto } from '../../common/http/list-query.dto';

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/;
export const USERNAME_MESSAGE =
  'username must be 2-64 letters, digits, ".", "_" or "-", starting with a letter or digit';
export const GROUP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class CreateUserDto {
  @ApiProperty({
    example: 'ada',
    description:
      '2-64 letters, digits, ".", "_" or "-", checked and stored in canonical form: NFKC-normalised (full-width letters become ASCII), format characters (zero-width, BOM, bidi marks) removed, lowercase. A name whose canonical form is taken answers 409 username_taken.',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? canonicalUsername(value) : value,
  )
  @IsString()
  @IsUsernameText()
  @Matches(USERNAME_PATTERN, { message: USERNAME_MESSAGE })
  username: string;

  @ApiProperty({ minLength: 8, maxLength: 256 })
  @IsString()
  @Length(8, 256)
  password: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;

  @DisplayNameField()
  displayName?: string;

  @EmailField()
  email?: string | null;

  @ApiPropertyOptional({ type: [String], description: 'group names; each must exist' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];
}

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ROLES })
  @Optional()
  @IsString()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ type: [String] })
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional()
  @Optional()
  @IsBoolean()
  disabled?: boolean;

  @DisplayNameField()
  displayName?: string;

  @EmailField()
  email?: string | null;

  @NewPasswordField()
  password?: string;
}

export class CreateGroupDto {
  @ApiProperty({
    example: 'engineering',
    description: '1-64 letters, digits, ".", "_" or "-"; stored lowercase',
  })
  @IsString()
  @Matches(GROUP_NAME_PATTERN, {
    message: 'name must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  })
  @IsSafeText()
  name: string;
}

export class LoginDto {
  @ApiProperty({
    description:
      'compared in canonical form (NFKC, format characters removed, case-folded), so every form of a name signs in to, and is throttled as, the same account',
  })
  @IsString()
  @Length(1, 256)
  @IsUsernameText()
  username: string;

  @ApiProperty()
  @IsString()
  @Length(1, 1024)
  password: string;
}

/** GET /api/users: a page of users, optionally only those matching `q`. */
export class ListUsersQueryDto extends ListQueryDto {
  @ApiPropertyOptional({
    maxLength: 100,
    description: 'only users whose username, display name or email contains this (any case)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
