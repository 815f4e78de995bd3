import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ROLES, type Role } from '../../common/auth/roles';
import { InjectConfig } from '../../common/config/app-config';
import type { LoginPolicyConfig } from '../../common/config/ldap-config';
import { Database } from '../../common/database/database';
import { audit } from '../../common/logging/audit';
import { ConflictProblem, ForbiddenProblem } from '../../common/problems/problem';
import { canonicalUsername, hasRefusedUsernameCharacters } from '../../common/text/username';
import { MeResponse, toAccountResponse } from '../auth.mapper';
import { AuthCache } from '../auth-cache';
import { USERNAME_PATTERN } from '../dto/user.dto';
import { GroupEntity } from '../entities/group.entity';
import { UserEntity } from '../entities/user.entity';
import { GroupsService } from '../groups.service';
import { MailLinksRepository } from '../mail/mail-links.repository';
import { SessionsService } from '../sessions.service';
import { GroupsRepository } from '../store/groups.repository';
import { UsersRepository } from '../store/users.repository';
import { SsoRepository } from './sso.repository';
import { NO_PASSWORD } from '../no-password';

/** Who the provider says signed in, read from its verified claims (or the directory). */
export interface SsoIdentity {
  /** `oidc:<id>`, `saml:<id>` or `ldap` */
  provider: string;
  subject: string;
  username: string;
  displayName?: string;
  /** A verified address only (it may join a local account: SSO_LINK_BY_EMAIL). */
  email?: string;
  groups: string[];
}

/** A provider's group mappings (OIDC_<ID>_ROLE_MAP and _GROUP_MAP, SAML_<ID>_…). */
export interface SsoMappings {
  roleMap: { idpGroup: string; role: Role }[];
  groupMap: { idpGroup: string; kbGroup: string }[];
}

export { NO_PASSWORD };

const RANK: Record<Role, number> = { reader: 0, editor: 1, admin: 2 };

/** The widest role any of `groups` maps to; null when the map says nothing about them. */
export function mappedRole(groups: string[], mappings: SsoMappings): Role | null {
  const roles = mappings.roleMap.filter((m) => groups.includes(m.idpGroup)).map((m) => m.role);
  if (roles.length === 0) return null;
  return roles.reduce((a, b) => (RANK[a] >= RANK[b] ? a : b), ROLES[0]);
}

/** The kb groups `groups` map to, by name. */
export function mappedGroups(groups: string[], mappings: SsoMappings): string[] {
  const names = mappings.groupMap.filter((m) => groups.includes(m.idpGroup)).map((m) => m.kbGroup);
  return [...new Set(names)].sort();
}

/**
 * The kb account behind a provider identity: created at the first sign-in (just in time), and
 * at every sign-in given the role and the mapped groups the provider's groups say now.
 */
@Injectable()
export class SsoAccountsService {
  constructor(
    private readonly db: Database,
    private readonly users: UsersRepository,
    private readonly groupRows: GroupsRepository,
    private readonly groups: GroupsService,
    private readonly sso: SsoRepository,
    private readonly cache: AuthCache,
    private readonly sessions: SessionsService,
    private readonly links: MailLinksRepository,
    @InjectConfig('loginPolicy') private readonly policy: LoginPolicyConfig,
  ) {}

  /** The active account to sign in; refuses a disabled one (403 `account_disabled`). */
  async signIn(identity: SsoIdentity, mappings: SsoMappings): Promise<UserEntity> {
    const userId = await this.sso.findUserId(identity.provider, identity.subject);
    const user = userId ? await this.users.findById(userId) : await this.linkByEmail(identity);
    if (!user) return this.provision(identity, mappings);
    if (user.disabled) {
      throw new ForbiddenProblem(
        'account_disabled',
        'Your kb account is disabled. Ask an administrator to enable it.',
      );
    }
    await this.sso.touch(identity.provider, identity.subject);
    return this.applyMappings(user, identity, mappings);
  }

  /** Starts the browser session of a single sign-on (remembering which provider made it). */
  async startSession(
    user: UserEntity,
    provider: string,
    context: { ip: string; userAgent?: string },
  ): Promise<{ secret: string; maxAgeMs: number; me: MeResponse }> {
    const { secret, session } = await this.sessions.start(
      user.id,
      context.ip,
      context.userAgent,
      provider,
    );
    await this.sso.markSession(session.id, provider);
    audit('auth.sso.login.succeeded', {
      actorId: user.id,
      target: `user:${user.id}`,
      username: user.username,
      provider,
      ip: context.ip,
    });
    return { secret, maxAgeMs: this.sessions.absoluteMs, me: toAccountResponse(user) };
  }

  /**
   * The local account holding the identity's verified email, joined to the identity when
   * SSO_LINK_BY_EMAIL is on (audited); refused in words when it is off, so a provider can never
   * take over an account on its own say-so. Null when no account holds the address.
   */
  private async linkByEmail(identity: SsoIdentity): Promise<UserEntity | null> {
    if (!identity.email) return null;
    const holders = await this.users.findByEmail(identity.email);
    if (holders.length === 0) return null;
    if (!this.policy.linkByEmail) {
      throw new ConflictProblem(
        'sso_email_in_use',
        'A kb account already has your email address, and kb does not join sign-in identities to existing accounts by email. Ask an administrator (SSO_LINK_BY_EMAIL).',
      );
    }
    if (holders.length > 1) {
      throw new ConflictProblem(
        'sso_email_ambiguous',
        'Several kb accounts have your email address, so kb cannot tell which one is yours. Ask an administrator.',
      );
    }
    const [user] = holders;
    if (user.disabled) return user;
    try {
      await this.db.transaction((tx) =>
        this.sso.link(identity.provider, identity.subject, user.id, tx),
      );
    } catch (error) {
      // The same person's other sign-in linked it first.
      if ((await this.sso.findUserId(identity.provider, identity.subject)) !== user.id) throw error;
    }
    audit('sso.identity.linked', {
      actorId: null,
      target: `user:${user.id}`,
      username: user.username,
      provider: identity.provider,
      by: 'email',
    });
    return this.users.findById(user.id);
  }

  private async provision(identity: SsoIdentity, mappings: SsoMappings): Promise<UserEntity> {
    const username = canonicalUsername(identity.username);
    if (!USERNAME_PATTERN.test(username) || hasRefusedUsernameCharacters(username)) {
      throw new ForbiddenProblem(
        'sso_username_invalid',
        'The username your identity provider sent is not a valid kb username (2-64 letters, digits, ".", "_" or "-"). Ask an administrator.',
      );
    }
    const taken = () =>
      new ConflictProblem(
        'sso_username_taken',
        `The username "${username}" belongs to another kb account. Ask an administrator to link or rename it.`,
      );
    if (await this.users.usernameTaken(username)) throw taken();
    const now = new Date();
    // An invitation to the identity's verified address: its groups, and its role unless a
    // role map decides roles; it is used up by this account.
    const invitation = identity.email
      ? await this.links.findOpenInvitationTo(identity.email, now)
      : null;
    const groups = await this.ensureGroups([
      ...new Set([...mappedGroups(identity.groups, mappings), ...(invitation?.groups ?? [])]),
    ]);
    const user = Object.assign(new UserEntity(), {
      id: randomUUID(),
      username,
      usernameKey: username,
      displayName: (identity.displayName ?? username).slice(0, 128),
      email: identity.email?.slice(0, 254) ?? null,
      passwordHash: NO_PASSWORD,
      role: mappedRole(identity.groups, mappings) ?? invitation?.role ?? 'reader',
      disabled: false,
      groups,
      createdAt: now,
      updatedAt: now,
    });
    let accepted = false;
    try {
      await this.db.transaction(async (tx) => {
        await this.users.save(user, tx);
        await this.sso.link(identity.provider, identity.subject, user.id, tx);
        // Taken by another account a moment ago: this one is made without it.
        if (invitation)
          accepted = await this.links.acceptInvitation(invitation.id, user.id, now, tx);
      });
    } catch (error) {
      // Another sign-in of the same person, or an account of that name, came first.
      const again = await this.sso.findUserId(identity.provider, identity.subject);
      const winner = again ? await this.users.findActiveById(again) : null;
      if (winner) return winner;
      if (await this.users.usernameTaken(username)) throw taken();
      throw error;
    }
    audit('sso.user.provisioned', {
      actorId: null,
      target: `user:${user.id}`,
      username,
      provider: identity.provider,
      role: user.role,
      groups: groups.map((g) => g.name).sort(),
    });
    if (invitation && accepted) {
      audit('invitation.accepted', {
        actorId: user.id,
        target: `invitation:${invitation.id}`,
        userId: user.id,
        username,
        role: user.role,
        groups: groups.map((g) => g.name).sort(),
        provider: identity.provider,
      });
    }
    return user;
  }

  /**
   * The provider's groups decide the role (when a role map is configured) and membership of the
   * kb groups the group map names; other groups stay as administrators set them.
   */
  private async applyMappings(
    user: UserEntity,
    identity: SsoIdentity,
    mappings: SsoMappings,
  ): Promise<UserEntity> {
    const managed = new Set(mappings.groupMap.map((m) => m.kbGroup));
    const before = user.groups.map((g) => g.name).sort();
    const wanted = [
      ...new Set([
        ...before.filter((name) => !managed.has(name)),
        ...mappedGroups(identity.groups, mappings),
      ]),
    ].sort();
    const role =
      mappings.roleMap.length > 0 ? (mappedRole(identity.groups, mappings) ?? 'reader') : user.role;
    const groupsChanged = wanted.join('\n') !== before.join('\n');
    let roleChanged = role !== user.role;
    if (roleChanged && user.role === 'admin' && (await this.users.countActiveAdmins()) <= 1) {
      // The mapping never removes the last administrator (as PATCH /api/users refuses to).
      roleChanged = false;
    }
    if (!groupsChanged && !roleChanged) return user;
    const previousRole = user.role;
    if (groupsChanged) user.groups = await this.ensureGroups(wanted);
    if (roleChanged) user.role = role;
    user.updatedAt = new Date();
    await this.users.save(user);
    this.cache.invalidateUser(user.id);
    audit('sso.mapping.applied', {
      actorId: null,
      target: `user:${user.id}`,
      provider: identity.provider,
      ...(roleChanged ? { role: user.role, previousRole } : {}),
      ...(groupsChanged
        ? {
            groupsAdded: wanted.filter((g) => !before.includes(g)),
            groupsRemoved: before.filter((g) => !wanted.includes(g)),
          }
        : {}),
    });
    return user;
  }

  /** The groups by name, creating the mapped ones that do not exist yet. */
  private async ensureGroups(names: string[]): Promise<GroupEntity[]> {
    if (names.length === 0) return [];
    const found = await this.groupRows.findNamed(names);
    const missing = names.filter((n) => !found.some((g) => g.name === n));
    for (const name of missing) {
      try {
        await this.groups.create(name, null);
      } catch (error) {
        if (!(error instanceof ConflictProblem)) throw error;
      }
    }
    return missing.length === 0 ? found : this.groupRows.findNamed(names);
  }
}
