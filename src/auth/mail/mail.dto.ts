import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { ROLES, type Role } from '../../common/auth/roles';
import { Optional } from '../../common/problems/optional';
import { canonicalUsername, IsUsernameText } from '../../common/text/username';
import { DisplayNameField } from '../dto/account-fields';
import { USERNAME_MESSAGE, USERNAME_PATTERN } from '../dto/user.dto';

function EmailAddress(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ maxLength: 254, example: 'ada@example.com' })(target, key);
    IsEmail({}, { message: 'email must be an email address, such as ada@example.com' })(
      target,
      key,
    );
    MaxLength(254)(target, key);
    IsString()(target, key);
  };
}

/** The token of an invitation or reset link (the part after `#token=`). */
function LinkToken(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ description: 'the token from the link', maxLength: 128 })(target, key);
    MaxLength(128)(target, key);
    IsString()(target, key);
  };
}

/** A password as the existing rules want it: 8-256 characters. */
function Password(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ minLength: 8, maxLength: 256 })(target, key);
    Length(8, 256)(target, key);
    IsString()(target, key);
  };
}

export class CreateInvitationDto {
  @EmailAddress()
  email: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;

  @ApiPropertyOptional({ type: [String], description: 'group names; each must exist' })
  @Optional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  groups?: string[];
}

export class InvitationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty({ type: [String] })
  groups: string[];

  @ApiProperty({ type: String, nullable: true, description: 'who sent it (username)' })
  invitedBy: string | null;

  @ApiProperty()
  createdAt: string;

  @ApiProperty({ description: 'the link works until then (7 days after it was sent)' })
  expiresAt: string;

  @ApiProperty({ enum: ['pending', 'expired'] })
  status: 'pending' | 'expired';
}

export class CreatedInvitationResponse extends InvitationResponse {
  @ApiProperty({ description: 'whether the invitation went out by email (SMTP configured)' })
  emailSent: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'without SMTP: the link to pass on to the invitee (shown once; kb keeps only its hash); null when it was mailed',
  })
  link: string | null;
}

export class InvitationList {
  @ApiProperty({ type: [InvitationResponse] })
  items: InvitationResponse[];
}

export class LinkTokenDto {
  @LinkToken()
  token: string;
}

/** What the invitation page shows before the invitee sets a password. */
export class InvitationDetails {
  @ApiProperty()
  email: string;

  @ApiProperty({ enum: ROLES })
  role: Role;

  @ApiProperty({ description: 'a free username made from the address, to accept or change' })
  suggestedUsername: string;

  @ApiProperty()
  expiresAt: string;
}

export class AcceptInvitationDto {
  @LinkToken()
  token: string;

  @ApiProperty({ example: 'ada', description: USERNAME_MESSAGE })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? canonicalUsername(value) : value,
  )
  @IsString()
  @IsUsernameText()
  @Matches(USERNAME_PATTERN, { message: USERNAME_MESSAGE })
  username: string;

  @Password()
  password: string;

  @DisplayNameField()
  displayName?: string;
}

export class AccountReadyResponse {
  @ApiProperty({ description: 'the username to sign in with' })
  username: string;
}

export class PasswordResetStatus {
  @ApiProperty({ description: 'whether "Forgot password?" works (SMTP is configured)' })
  enabled: boolean;
}

export class RequestPasswordResetDto {
  @EmailAddress()
  email: string;
}

export class PasswordResetRequested {
  @ApiProperty({ description: 'the same words whether or not an account has the address' })
  detail: string;
}

export class ResetPasswordDto {
  @LinkToken()
  token: string;

  @Password()
  password: string;
}

export class PasswordResetDone extends AccountReadyResponse {
  @ApiProperty({ description: 'how many sessions of the account ended' })
  sessionsEnded: number;
}
