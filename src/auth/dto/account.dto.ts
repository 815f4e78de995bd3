import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length } from 'class-validator';

/** PATCH /api/me: what a user may change about their own account. */
export class UpdateMeDto {
  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  displayName?: string;

  @ApiPropertyOptional({
    minLength: 8,
    maxLength: 256,
    description:
      'a new password; needs currentPassword. Ends your other browser sessions (this one stays signed in).',
  })
  @IsOptional()
  @IsString()
  @Length(8, 256)
  password?: string;

  @ApiPropertyOptional({
    maxLength: 1024,
    description: 'your present password; required with password (422 when missing or wrong)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  currentPassword?: string;

  @ApiPropertyOptional({ description: 'true: revoke every personal access token you have' })
  @IsOptional()
  @IsBoolean()
  revokeTokens?: boolean;
}
