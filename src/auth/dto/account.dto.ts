import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import { Optional } from '../../common/problems/optional';
import { DisplayNameField, EmailField, NewPasswordField } from './account-fields';

/** PATCH /api/me: what a user may change about their own account. */
export class UpdateMeDto {
  @DisplayNameField()
  displayName?: string;

  @EmailField()
  email?: string | null;

  @NewPasswordField(
    'a new password; needs currentPassword. Ends your other browser sessions (this one stays signed in).',
  )
  password?: string;

  @ApiPropertyOptional({
    maxLength: 1024,
    description: 'your present password; required with password (422 when missing or wrong)',
  })
  @Optional()
  @IsString()
  @Length(1, 1024)
  currentPassword?: string;

  @ApiPropertyOptional({ description: 'true: revoke every personal access token you have' })
  @Optional()
  @IsBoolean()
  revokeTokens?: boolean;
}

/** POST /api/me/password: the present password and the new one. */
export class ChangePasswordDto {
  @ApiProperty({
    maxLength: 1024,
    description:
      'your present password (422 wrong_password when wrong; counts as a sign-in attempt)',
  })
  @IsString()
  @Length(1, 1024)
  currentPassword: string;

  @ApiProperty({ minLength: 8, maxLength: 256 })
  @IsString()
  @Length(8, 256)
  newPassword: string;
}
