import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';

/** Argon2id. The "fast" cost exists only so test suites don't spend minutes hashing. */
@Injectable()
export class PasswordService {
  private readonly options;
  private dummyHash?: Promise<string>;

  constructor(@InjectConfig('auth') config: AuthConfig) {
    this.options =
      config.passwordHashCost === 'fast'
        ? { algorithm: Algorithm.Argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 }
        : { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
  }

  hash(password: string): Promise<string> {
    return hash(password, this.options);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real check, so unknown usernames can't be told apart by timing. */
  async verifyAgainstNothing(password: string): Promise<false> {
    this.dummyHash ??= this.hash('not-a-real-password-' + Math.random());
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
