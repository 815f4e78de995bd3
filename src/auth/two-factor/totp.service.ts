import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import * as QRCode from 'qrcode';
import { ConflictProblem, fieldProblem } from '../../common/problems/problem';
import { sha256Hex } from '../secrets';
import { TwoFactorRepository } from './two-factor.repository';

/** Ten single-use recovery codes, made at enrolment and shown once. */
const RECOVERY_CODES = 10;
/** One 30-second step either side: a phone clock a little off still works (RFC 6238 5.2). */
const EPOCH_TOLERANCE_SECONDS = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface TotpSetup {
  secret: string;
  otpauthUri: string;
  /** The URI as a QR code: an SVG image as a data URL. */
  qrCode: string;
}

/** What a code typed at sign-in turned out to be. */
export type CodeKind = 'totp' | 'recovery_code';

/** `xxxx-xxxx-xxxx` from 31 unambiguous letters and digits (about 59 bits). */
function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)]
    .map((g) => g.join(''))
    .join('-');
}

/** Spaces, dashes and case do not matter when a recovery code is typed. */
function recoveryHash(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
}

const isTotpShaped = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));

/**
 * TOTP (RFC 6238, through otplib) and recovery codes. The secret is answered once, while it is
 * being set up; after that only whether it is on.
 */
@Injectable()
export class TotpService {
  constructor(private readonly rows: TwoFactorRepository) {}

  /** A new secret waiting for its first code; 409 when TOTP is already on. */
  async start(user: { id: string; username: string }): Promise<TotpSetup> {
    const secret = generateSecret();
    if (!(await this.rows.startTotp(user.id, secret))) {
      throw new ConflictProblem(
        'two_factor_enabled',
        'Two-factor sign-in is already on; turn it off first to set it up again.',
      );
    }
    const otpauthUri = generateURI({ issuer: 'kb', label: user.username, secret });
    const svg = await QRCode.toString(otpauthUri, { type: 'svg', margin: 1 });
    return {
      secret,
      otpauthUri,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    };
  }

  /** The first code confirms the secret: TOTP is on and the recovery codes are answered once. */
  async enable(userId: string, code: string): Promise<string[]> {
    const row = await this.rows.findTotp(userId);
    if (!row || row.enabledAt) {
      throw new ConflictProblem(
        'no_two_factor_setup',
        'Start setting up two-factor sign-in first (POST .../totp).',
      );
    }
    const step = await this.matchStep(row.secret, code, null);
    if (step === null) {
      throw fieldProblem('code', 'invalid_code', 'The code is wrong or too old; try the next one.');
    }
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    if (!(await this.rows.enableTotp(userId, step, codes.map(recoveryHash)))) {
      throw new ConflictProblem('two_factor_enabled', 'Two-factor sign-in is already on.');
    }
    return codes;
  }

  async isEnabled(userId: string): Promise<boolean> {
    return (await this.rows.findTotp(userId))?.enabledAt != null;
  }

  /**
   * Checks a code typed at sign-in (or to turn TOTP off): six digits are a TOTP code, accepted
   * once per time step; anything else is a recovery code, used up by the check.
   */
  async check(userId: string, code: string): Promise<CodeKind | null> {
    if (isTotpShaped(code)) {
      const row = await this.rows.findTotp(userId);
      if (!row?.enabledAt) return null;
      const step = await this.matchStep(row.secret, code, row.lastStep);
      return step !== null && (await this.rows.acceptStep(userId, step)) ? 'totp' : null;
    }
    if (code.length > 64) return null;
    return (await this.rows.consumeRecoveryCode(userId, recoveryHash(code)))
      ? 'recovery_code'
      : null;
  }

  recoveryCodesLeft(userId: string): Promise<number> {
    return this.rows.countRecoveryCodes(userId);
  }

  /** Turns TOTP off and drops the recovery codes; answers whether it was on. */
  disable(userId: string): Promise<boolean> {
    return this.rows.deleteTotp(userId);
  }

  /** The time step the code belongs to, or null; steps up to `lastStep` were used already. */
  private async matchStep(
    secret: string,
    code: string,
    lastStep: number | null,
  ): Promise<number | null> {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    const result = await verify({
      secret,
      token,
      epochTolerance: EPOCH_TOLERANCE_SECONDS,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }
}
