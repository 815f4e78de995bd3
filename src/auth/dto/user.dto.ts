import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { ROLES, type Role } from '../../common/auth/roles';

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{1,63}$/;
export const GROUP_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export class CreateUserDto {
  @ApiProperty({
    example: 'ada',
    description: '2-64 letters, digits, ".", "_" or "-"; stored lowercase',
  })
  @IsString()
  @Matches(USERNAME_PATTERN, {
    message:
      'username must be 2-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  })
  username: string;

  @ApiProperty({ minLength: 8, maxLength: 256 })
  @IsString()
  @Length(8, 256)
  password: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  displayName?: string;

  @ApiPropertyOptional({ type: [String], description: 'group names; each must exist' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];
}

export class UpdateUserDto {
  @ApiPropertyOptional({ enum: ROLES })
  @IsOptional()
  @IsString()
  @IsIn(ROLES)
  role?: Role;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  disabled?: boolean;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  displayName?: string;

  @ApiPropertyOptional({ minLength: 8, maxLength: 256 })
  @IsOptional()
  @IsString()
  @Length(8, 256)
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
  name: string;
}

export class LoginDto {
  @ApiProperty()
  @IsString()
  @Length(1, 256)
  username: string;

  @ApiProperty()
  @IsString()
  @Length(1, 1024)
  password: string;
}
