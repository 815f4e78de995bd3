import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { InjectConfig } from '../common/config/app-config';
import type { AuthConfig } from '../common/config/auth-config';
import type { LogConfig } from '../common/config/log-config';
import { Database } from '../common/database/database';
import { Created, locationOf } from '../common/http/created';
import type { Role } from '../common/auth/roles';
import { cursorString, Paged, ListRequest, toPaged } from '../common/http/pagination';
import { audit } from '../common/logging/audit';
import { ConflictProblem, fieldProblem, NotFoundProblem } from '../common/problems/problem';
import { canonicalUsername, hasRefusedUsernameCharacters } from '../common/text/username';
import { AuthCache } from './auth-cache';
import { toUserResponse, UserResponse } from './auth.mapper';
import { SsoRepository } from './oidc/sso.repository';
import { CreateUserDto, UpdateUserDto, USERNAME_MESSAGE, USERNAME_PATTERN } from './dto/user.dto';
import { UserEntity } from './entities/user.entity';
import { GroupsService } from './groups.service';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { newPassword } from './secrets';
import { SessionsRepository } from './store/sessions.repository';
import { UsersRepository } from './store/users.repository';
import { TwoFactorRepository } from './two-factor/two-factor.repository';

@Injectable()
export class UsersService {
  private readonly logger = new Logger('Users');

  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly db: Database,
    private readonly groups: GroupsService,
    private readonly passwords: PasswordService,
    private readonly cache: AuthCache,
    private readonly throttle: LoginThrottleService,
    private readonly factors: TwoFactorRepository,
    @InjectConfig('auth') private readonly authConfig: AuthConfig,
    @InjectConfig('log') private readonly logConfig: LogConfig,
    private readonly sso: SsoRepository,
  ) {}

  findActiveByUsername(username: string): Promise<UserEntity | null> {
    return this.users.findActiveByUsername(username);
  }

  findActiveById(id: string): Promise<UserEntity | null> {
    return this.users.findActiveById(id);
  }

  /** The stored user, for this module's services; 404 `user_not_found` when there is none. */
  async load(id: string): Promise<UserEntity> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundProblem('user');
    return user;
  }

  async get(id: string): Promise<UserResponse> {
    return this.respond(await this.load(id));
  }

  /** The user as the users API answers them, with whether the sign-in throttle holds them. */
  private async respond(user: UserEntity): Promise<UserResponse> {
    const locked = await this.throttle.lockedAccounts([user.usernameKey]);
    const providers = await this.sso.providersOf([user.id]);
    const factors = await this.factors.summaries([user.id]);
    return toUserResponse(
      user,
      locked.has(user.usernameKey),
      providers.get(user.id),
      factors.get(user.id),
    );
  }

  /** `actorId`: the administrator creating the account; null for the CLI and the bootstrap. */
  async create(
    input: CreateUserDto,
    actorId: string | null = null,
  ): Promise<Created<UserResponse>> {
    // The API and the CLI canonicalise in CreateUserDto already; the bootstrap administrator's
    // name comes from the configuration.
    const username = canonicalUsername(input.username);
    if (!USERNAME_PATTERN.test(username) || hasRefusedUsernameCharacters(username)) {
      throw fieldProblem('username', 'matches', USERNAME_MESSAGE);
    }
    const groups = await this.groups.resolveNames(input.groups ?? []);
    if (await this.users.usernameTaken(username)) {
      throw new ConflictProblem('username_taken', `The username "${username}" is taken.`);
    }
    const now = new Date();
    const user = Object.assign(new UserEntity(), {
      id: randomUUID(),
      username,
      usernameKey: username,
      displayName: input.displayName ?? username,
      email: input.email ?? null,
      lastLoginAt: null,
      passwordHash: await this.passwords.hash(input.password),
      role: input.role,
      disabled: false,
      groups,
      createdAt: now,
      updatedAt: now,
    });
    let saved: UserEntity;
    try {
      saved = await this.users.save(user);
    } catch (error) {
      if (await this.users.usernameTaken(username)) {
        throw new ConflictProblem('username_taken', `The username "${username}" is taken.`);
      }
      throw error;
    }
    audit('user.created', {
      actorId,
      target: `user:${saved.id}`,
      username,
      role: saved.role,
      groups: groups.map((g) => g.name).sort(),
    });
    return new Created(await this.respond(saved), locationOf('users', saved.id));
  }

  /** `filter`: only users whose username, display name or email contains it. */
  async list(page: ListRequest, filter?: string): Promise<Paged<UserResponse>> {
    const after = page.cursor ? cursorString(page.cursor, 'after') : undefined;
    const rows = await this.users.listByUsername(after, page.limit + 1, filter?.trim());
    const locked = await this.throttle.lockedAccounts(rows.map((u) => u.usernameKey));
    const providers = await this.sso.providersOf(rows.map((u) => u.id));
    const factors = await this.factors.summaries(rows.map((u) => u.id));
    return toPaged(
      rows,
      page.limit,
      (u) => toUserResponse(u, locked.has(u.usernameKey), providers.get(u.id), factors.get(u.id)),
      (u) => ({ after: u.username }),
    );
  }

  /** `actorId`: the administrator making the change; null for the CLI. */
  async update(id: string, input: UpdateUserDto, actorId: string | null): Promise<UserResponse> {
    const user = await this.load(id);
    // Only an active administrator counts: demoting an already disabled one removes nobody.
    const activeAdmin = user.role === 'admin' && !user.disabled;
    const demoting = input.role !== undefined && input.role !== 'admin' && activeAdmin;
    const disabling = input.disabled === true && activeAdmin;
    if ((demoting || disabling) && (await this.countActiveAdmins()) <= 1) throw lastAdmin();
    if (input.disabled === true && actorId !== null && id === actorId) {
      throw new ConflictProblem('cannot_disable_self', 'You cannot disable your own account.');
    }
    if (input.groups !== undefined) user.groups = await this.groups.resolveNames(input.groups);
    if (input.role !== undefined) user.role = input.role;
    if (input.displayName !== undefined) user.displayName = input.displayName;
    if (input.email !== undefined) user.email = input.email;
    if (input.disabled !== undefined) user.disabled = input.disabled;
    if (input.password !== undefined) user.passwordHash = await this.passwords.hash(input.password);
    user.updatedAt = new Date();
    await this.db.transaction(async (tx) => {
      // Checked again under a lock: two admins demoting each other at once must not both win.
      if (
        (demoting || disabling) &&
        (await this.users.countActiveAdmins({ forUpdate: true }, tx)) <= 1
      ) {
        throw lastAdmin();
      }
      await this.users.save(user, tx);
      // A disabled account or a new password ends every browser session at once.
      if (input.disabled === true || input.password !== undefined) {
        await this.sessions.deleteOfUser(id, tx);
      }
    });
    this.cache.invalidateUser(id);
    audit('user.updated', {
      actorId,
      target: `user:${id}`,
      changed: Object.keys(input).filter((k) => input[k as keyof UpdateUserDto] !== undefined),
      ...(input.role !== undefined ? { role: input.role } : {}),
      ...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
      ...(input.groups !== undefined ? { groups: user.groups.map((g) => g.name).sort() } : {}),
    });
    return this.respond(user);
  }

  /** Notes a successful sign-in on the account (the users screen shows it). */
  recordSignIn(id: string, at = new Date()): Promise<void> {
    return this.users.recordSignIn(id, at);
  }

  /** The CLI's commands name the account by username. */
  async getByUsername(username: string): Promise<UserEntity> {
    const user = await this.users.findByUsername(username);
    if (!user) throw new NotFoundProblem('user');
    return user;
  }

  countActiveAdmins(): Promise<number> {
    return this.users.countActiveAdmins();
  }

  /**
   * First start: with no active administrator (e.g. a fresh database, or one where only the
   * CLI created editors), create the administrator from KB_ADMIN_USERNAME / KB_ADMIN_PASSWORD,
   * or with a generated password printed once.
   */
  async ensureBootstrapAdmin(): Promise<void> {
    if ((await this.countActiveAdmins()) > 0) return;
    if (await this.users.usernameTaken(this.authConfig.adminUsername)) {
      this.logger.warn({
        msg: `There is no active administrator and the username "${this.authConfig.adminUsername}" is taken; create one with npm run cli -- user:create --role admin`,
      });
      return;
    }
    const generated = this.authConfig.adminPassword === undefined;
    const password = this.authConfig.adminPassword ?? newPassword();
    try {
      await this.create({
        username: this.authConfig.adminUsername,
        password,
        role: 'admin' as Role,
      });
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (error instanceof ConflictProblem) return;
      throw error;
    }
    if (generated) {
      const msg = `Created the bootstrap administrator "${this.authConfig.adminUsername}" with a generated password; it is shown only this once. Sign in with POST /auth/login, then change it (PATCH /api/users/{id} or npm run cli -- user:set-password).`;
      if (this.logConfig.level === 'error' || this.logConfig.level === 'silent') {
        // The log level would swallow the only copy of the password: print it anyway.
        console.warn(`${msg}\nusername: ${this.authConfig.adminUsername}\npassword: ${password}`);
      } else {
        this.logger.warn({ msg, username: this.authConfig.adminUsername, password });
      }
    } else {
      this.logger.log({
        msg: `Created the bootstrap administrator "${this.authConfig.adminUsername}"`,
      });
    }
  }
}

function lastAdmin(): ConflictProblem {
  return new ConflictProblem(
    'last_admin',
    'This is the only active administrator; appoint another first.',
  );
}
