import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsString, Length } from 'class-validator';
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
}
