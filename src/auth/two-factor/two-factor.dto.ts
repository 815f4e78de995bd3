import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Length } from 'class-validator';
import { OpenSchema } from '../../common/openapi/open-schema.decorator';
import { Optional } from '../../common/problems/optional';
import { MeResponse } from '../dto/auth-response.dto';

const DATE_TIME = { type: String, format: 'date-time' } as const;

/** A code typed at sign-in or to confirm TOTP: six digits, or a recovery code. */
export class TwoFactorCodeDto {
  @ApiProperty({
    maxLength: 64,
    example: '123456',
    description: 'six digits from the authenticator app, or one of your recovery codes',
  })
  @IsString()
  @Length(1, 64)
  code: string;
}

/** POST /api/me/two-factor/totp/disable: proof that it is you (one of them). */
export class DisableTotpDto {
  @ApiPropertyOptional({ maxLength: 1024, description: 'your current password' })
  @Optional()
  @IsString()
  @Length(1, 1024)
  password?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'a current code or a recovery code' })
  @Optional()
  @IsString()
  @Length(1, 64)
  code?: string;
}

/** A WebAuthn answer as @simplewebauthn/browser makes it (checked by @simplewebauthn/server). */
export class PasskeyAnswerDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'the PublicKeyCredential as JSON (startRegistration / startAuthentication)',
  })
  @IsObject()
  response: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 100, description: 'a name for a new passkey' })
  @Optional()
  @IsString()
  @Length(1, 100)
  name?: string;
}

export class TotpSetupResponse {
  @ApiProperty({ description: 'The base32 secret, for typing into an app (shown this once).' })
  secret: string;

  @ApiProperty({ example: 'otpauth://totp/kb:ada?secret=…&issuer=kb' })
  otpauthUri: string;

  @ApiProperty({ description: 'The otpauth URI as a QR code: an SVG data URL.' })
  qrCode: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({
    type: [String],
    description: 'Ten single-use recovery codes, shown this once (kb keeps only their hashes).',
  })
  recoveryCodes: string[];
}

export class EnrolledResponse extends RecoveryCodesResponse {
  @ApiProperty({ type: MeResponse })
  me: MeResponse;
}

export class PasskeyResponse {
  @ApiProperty({ description: 'The credential id (base64url).' })
  id: string;

  @ApiProperty({ example: 'Laptop' })
  name: string;

  @ApiProperty(DATE_TIME)
  createdAt: string;

  @ApiProperty({ ...DATE_TIME, nullable: true })
  lastUsedAt: string | null;
}

export class TwoFactorStatusResponse {
  @ApiProperty({ description: 'TOTP (an authenticator app) is on.' })
  totp: boolean;

  @ApiProperty({ type: 'integer', description: 'Unused recovery codes.' })
  recoveryCodesLeft: number;

  @ApiProperty({ type: [PasskeyResponse] })
  passkeys: PasskeyResponse[];

  @ApiProperty({ description: 'REQUIRE_2FA covers you: a second factor is asked at sign-in.' })
  required: boolean;
}

/** WebAuthn options for @simplewebauthn/browser (PublicKeyCredential*OptionsJSON). */
@OpenSchema()
export class WebAuthnOptionsResponse {
  @ApiProperty({ description: 'The challenge (base64url); answered once, within five minutes.' })
  challenge: string;
}
