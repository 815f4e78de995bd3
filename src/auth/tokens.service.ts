import { Injectable } from '@nestjs/common';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';
import { DATE_RULE, parseIsoDate } from '../common/dates/iso-date';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../common/auth/auth-user';
import { narrowerRole, roleAtLeast } from '../common/auth/roles';
import { Created, locationOf } from '../common/http/created';
import { cursorPosition, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import {
  ConflictProblem,
  fieldProblem,
  FieldProblems,
  NotFoundProblem,
} from '../common/problems/problem';
import {
  normalisePathPattern,
  pathPatternProblems,
  TOKEN_PERMISSIONS,
} from '../common/auth/token-scope';
import { AuthCache } from './auth-cache';
import { toTokenResponse, TokenResponse } from './auth.mapper';
import { CreatedTokenResponse } from './dto/auth-response.dto';
import { CreateTokenDto } from './dto/token.dto';
import { AccessTokenEntity } from './entities/access-token.entity';
import { newAccessToken, sha256Hex } from './secrets';
import { TokensRepository } from './store/tokens.repository';

const LAST_USED_INTERVAL_MS = 60_000;

/** Normalised, checked and de-duplicated patterns (422 naming each bad one). */
export function tokenPaths(input: string[]): string[] {
  const patterns = input.map(normalisePathPattern);
  const problems = patterns.flatMap((p, i) => pathPatternProblems(p, `paths.${i}`));
  if (problems.length > 0) throw new FieldProblems(problems);
  return [...new Set(patterns)];
}

@Injectable()
export class TokensService {
  constructor(
    @InjectConfig('auth') private readonly authConfig: AuthConfig,
    private readonly tokens: TokensRepository,
    private readonly cache: AuthCache,
  ) {}

  /** The secret is in this answer only. */
  async create(
    owner: AuthUser,
    input: CreateTokenDto,
    now = new Date(),
  ): Promise<Created<CreatedTokenResponse>> {
    const scope = input.scope ?? owner.role;
    if (!roleAtLeast(owner.role, scope)) {
      throw fieldProblem(
        'scope',
        'scope_too_wide',
        `A token cannot act with more than your role (${owner.role}).`,
      );
    }
    const paths = input.paths === undefined ? null : tokenPaths(input.paths);
    const permissions =
      input.permissions === undefined
        ? null
        : TOKEN_PERMISSIONS.filter((p) => input.permissions?.includes(p));
    let expiresAt: Date | null = null;
    if (input.expiresAt !== undefined) {
      expiresAt = parseIsoDate(input.expiresAt);
      if (!expiresAt) {
        throw fieldProblem('expiresAt', 'invalid_date', `expiresAt must be ${DATE_RULE}.`);
      }
      if (expiresAt.getTime() <= now.getTime()) {
        throw fieldProblem('expiresAt', 'not_in_future', 'expiresAt must be a date in the future.');
      }
    }
    const token = newAccessToken();
    const cap = this.authConfig.tokenMaxPerUser;
    const entity = await this.tokens.insertWithinCap(
      Object.assign(new AccessTokenEntity(), {
        id: randomUUID(),
        userId: owner.id,
        name: input.name,
        tokenHash: sha256Hex(token),
        prefix: token.slice(0, 12),
        scope,
        paths,
        permissions,
        expiresAt,
        lastUsedAt: null,
        createdAt: now,
      }),
      cap,
      now,
    );
    if (!entity) {
      throw new ConflictProblem(
        'too_many_tokens',
        `You already hold ${cap} live tokens, the most one person may (TOKEN_MAX_PER_USER). Revoke one you no longer use first.`,
        { limit: cap },
      );
    }
    audit('token.created', {
      actorId: owner.id,
      target: `token:${entity.id}`,
      ownerId: owner.id,
      name: entity.name,
      scope,
      paths,
      permissions,
      expiresAt: expiresAt?.toISOString() ?? null,
    });
    return new Created({ ...toTokenResponse(entity), token }, locationOf('tokens', entity.id));
  }

  /** A user's tokens, newest first (never their secrets). */
  async list(userId: string, page: ListRequest): Promise<Paged<TokenResponse>> {
    const rows = await this.tokens.listOfUser(userId, cursorPosition(page.cursor), page.limit + 1);
    return toPaged(rows, page.limit, toTokenResponse, (t) => ({
      at: t.createdAt.toISOString(),
      id: t.id,
    }));
  }

  /** Revokes one of the user's tokens at once; another user's token is "not found". */
  async revoke(userId: string, id: string, actorId: string): Promise<void> {
    const token = await this.tokens.findOfUser(id, userId);
    if (!token) throw new NotFoundProblem('token');
    await this.tokens.delete(token.id);
    this.cache.delete(`bearer:${token.tokenHash}`);
    audit('token.revoked', { actorId, target: `token:${token.id}`, ownerId: userId });
  }

  /** Revokes every token of a user at once; answers how many there were. */
  async revokeAll(userId: string, actorId: string): Promise<number> {
    const tokens = await this.tokens.allOfUser(userId);
    if (tokens.length === 0) return 0;
    await this.tokens.deleteMany(tokens.map((t) => t.id));
    for (const token of tokens) {
      this.cache.delete(`bearer:${token.tokenHash}`);
      audit('token.revoked', { actorId, target: `token:${token.id}`, ownerId: userId });
    }
    return tokens.length;
  }

  /** The live token record for a presented secret, or null. Also keeps lastUsedAt fresh. */
  async findLive(secret: string, now = new Date()): Promise<AccessTokenEntity | null> {
    const token = await this.tokens.findByHash(sha256Hex(secret));
    if (!token) return null;
    if (token.expiresAt && token.expiresAt.getTime() <= now.getTime()) return null;
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_INTERVAL_MS) {
      token.lastUsedAt = now;
      await this.tokens.touch(token.id, now);
    }
    return token;
  }

  effectiveRole(token: AccessTokenEntity, ownerRole: AuthUser['role']): AuthUser['role'] {
    return narrowerRole(token.scope, ownerRole);
  }
}
