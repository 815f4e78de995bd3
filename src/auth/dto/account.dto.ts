import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, Length } from 'class-validator';
import { Optional } from '../../common/problems/optional';
import { DisplayNameField, NewPasswordField } from './account-fields';

/** PATCH /api/me: what a user may change about their own account. */
export class UpdateMeDto {
  @DisplayNameField()
  displayName?: string;

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
