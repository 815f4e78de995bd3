import { HttpStatus, Injectable } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import { ConflictProblem, Problem, UnauthorizedProblem } from '../../common/problems/problem';
import { sha256Hex } from '../secrets';
import { PasskeyRow, TwoFactorRepository } from './two-factor.repository';

/** How long the browser has to answer a WebAuthn challenge (its row lives this long). */
const CHALLENGE_TTL_MS = 5 * 60_000;

/** The relying party: KB_PUBLIC_URL's host is the RP ID, its origin the one origin accepted. */
interface RelyingParty {
  id: string;
  origin: string;
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** The challenge a WebAuthn answer signed, read from its client data (checked again later). */
function challengeOf(clientDataJSON: unknown): string | null {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 4096) return null;
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : null;
  } catch {
    return null;
  }
}

const badPasskey = (detail = 'The passkey could not be verified.') =>
  new UnauthorizedProblem('passkey_invalid', detail);

/**
 * Passkeys (WebAuthn, through SimpleWebAuthn): registration for a signed-in person, and the
 * assertion that signs someone in (as a second factor after the password, or alone with a
 * discoverable credential). Challenges live in `auth_challenges`, keyed by their hash, so any
 * instance can finish a ceremony another one started, and each is answered once.
 */
@Injectable()
export class PasskeysService {
  constructor(
    private readonly rows: TwoFactorRepository,
    @InjectConfig('http') private readonly http: HttpConfig,
  ) {}

  private get rp(): RelyingParty {
    if (!this.http.publicUrl) {
      throw new Problem(
        HttpStatus.CONFLICT,
        'passkeys_unavailable',
        'Passkeys need KB_PUBLIC_URL (the address people open kb at).',
      );
    }
    const url = new URL(this.http.publicUrl);
    return { id: url.hostname, origin: url.origin };
  }

  list(userId: string): Promise<PasskeyRow[]> {
    return this.rows.listPasskeys(userId);
  }

  async registrationOptions(user: {
    id: string;
    username: string;
    displayName: string;
  }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.rows.listPasskeys(user.id);
    const options = await generateRegistrationOptions({
      rpName: 'kb',
      rpID: this.rp.id,
      userName: user.username,
      userDisplayName: user.displayName,
      // The user handle the authenticator keeps: the user's id, so a discoverable sign-in names them.
      userID: new Uint8Array(Buffer.from(user.id, 'utf8')),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.rows.insertChallenge(
      sha256Hex(options.challenge),
      { kind: 'passkey_register', userId: user.id, method: null },
      new Date(Date.now() + CHALLENGE_TTL_MS),
    );
    return options;
  }

  async register(
    userId: string,
    response: RegistrationResponseJSON,
    name: string,
  ): Promise<PasskeyRow> {
    const rp = this.rp;
    const challenge = challengeOf(response?.response?.clientDataJSON);
    const taken = challenge ? await this.rows.consumeChallenge(sha256Hex(challenge)) : null;
    if (!taken || taken.kind !== 'passkey_register' || taken.userId !== userId) {
      throw new UnauthorizedProblem(
        'passkey_challenge_expired',
        'The passkey challenge is unknown, used or expired; start again.',
      );
    }
    let credential;
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge!,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
      if (!result.verified) throw badPasskey();
      credential = result.registrationInfo.credential;
    } catch (error) {
      if (error instanceof Problem) throw error;
      throw badPasskey(`The passkey could not be verified: ${(error as Error).message}`);
    }
    if (await this.rows.findPasskey(credential.id)) {
      throw new ConflictProblem('passkey_exists', 'This passkey is already registered.');
    }
    const row = {
      id: credential.id,
      userId,
      name,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).map(String),
      createdAt: new Date(),
    };
    await this.rows.insertPasskey(row);
    return { ...row, lastUsedAt: null };
  }

  remove(userId: string, id: string): Promise<boolean> {
    return this.rows.deletePasskey(userId, id);
  }

  /**
   * Options for signing in: with `userId` (a password accepted, a second factor due) only that
   * person's passkeys; without, any discoverable one, which must verify the user itself.
   */
  async authenticationOptions(
    userId: string | null,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rpID = this.rp.id;
    const allow = userId ? await this.rows.listPasskeys(userId) : [];
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: allow.map((p) => ({ id: p.id, transports: p.transports })),
      userVerification: userId ? 'preferred' : 'required',
    });
    await this.rows.insertChallenge(
      sha256Hex(options.challenge),
      { kind: 'passkey_login', userId, method: null },
      new Date(Date.now() + CHALLENGE_TTL_MS),
    );
    return options;
  }

  /**
   * Checks a sign-in assertion; answers whose passkey it was and for whom the challenge was
   * made (null: password-less). A passkey of someone else than the challenge's person, a used
   * or unknown challenge, a bad signature or a counter that went back answer 401.
   */
  async authenticate(
    response: AuthenticationResponseJSON,
  ): Promise<{ userId: string; challengeUserId: string | null; passkeyId: string }> {
    const rp = this.rp;
    const challenge = challengeOf(response?.response?.clientDataJSON);
    const taken = challenge ? await this.rows.consumeChallenge(sha256Hex(challenge)) : null;
    if (!taken || taken.kind !== 'passkey_login') {
      throw new UnauthorizedProblem(
        'passkey_challenge_expired',
        'The passkey challenge is unknown, used or expired; start again.',
      );
    }
    const passkey =
      typeof response.id === 'string' ? await this.rows.findPasskey(response.id) : null;
    if (!passkey) throw badPasskey('This passkey is not registered with kb.');
    if (taken.userId !== null && passkey.userId !== taken.userId) {
      throw badPasskey('This passkey belongs to someone else.');
    }
    // Password-less: the authenticator names its user; it must be the passkey's owner.
    if (taken.userId === null && response.response.userHandle !== base64url(passkey.userId)) {
      throw badPasskey('This passkey belongs to someone else.');
    }
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge!,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: taken.userId === null,
      });
      if (!result.verified) throw badPasskey();
      newCounter = result.authenticationInfo.newCounter;
    } catch (error) {
      if (error instanceof Problem) throw error;
      throw badPasskey(`The passkey could not be verified: ${(error as Error).message}`);
    }
    if (!(await this.rows.usePasskey(passkey.id, newCounter, passkey.counter))) {
      throw badPasskey('The passkey was used at the same moment elsewhere; try again.');
    }
    return { userId: passkey.userId, challengeUserId: taken.userId, passkeyId: passkey.id };
  }
}
