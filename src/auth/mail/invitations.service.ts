import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../../common/auth/auth-user';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import { Database } from '../../common/database/database';
import { Created, locationOf } from '../../common/http/created';
import { audit } from '../../common/logging/audit';
import { composeMessage } from '../../common/mail/message';
import { Mailer } from '../../common/mail/mailer';
import { ConflictProblem, NotFoundProblem } from '../../common/problems/problem';
import { canonicalUsername, hasRefusedUsernameCharacters } from '../../common/text/username';
import { AuthCache } from '../auth-cache';
import { USERNAME_PATTERN } from '../dto/user.dto';
import { UserEntity } from '../entities/user.entity';
import { GroupsService } from '../groups.service';
import { PasswordService } from '../password.service';
import { UsersRepository } from '../store/users.repository';
import { consoleLink, linkTokenHash, LinkGoneProblem, newLinkToken } from './mail-links';
import { InvitationRecord, MailLinksRepository } from './mail-links.repository';
import {
  AcceptInvitationDto,
  AccountReadyResponse,
  CreatedInvitationResponse,
  CreateInvitationDto,
  InvitationDetails,
  InvitationList,
  InvitationResponse,
} from './mail.dto';

/** An invitation link works for 7 days. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

function toInvitationResponse(
  row: InvitationRecord,
  invitedBy: string | null,
  now = new Date(),
): InvitationResponse {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    groups: row.groups,
    invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: row.expiresAt.getTime() > now.getTime() ? 'pending' : 'expired',
  };
}

/**
 * Invitations by email: an administrator names an address and a role; the invitee opens the
 * single-use link (7 days) and chooses a username and a password, which creates their account
 * with that role and those groups. Without SMTP the administrator gets the link to pass on.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly db: Database,
    private readonly links: MailLinksRepository,
    private readonly users: UsersRepository,
    private readonly groups: GroupsService,
    private readonly passwords: PasswordService,
    private readonly cache: AuthCache,
    private readonly mailer: Mailer,
    @InjectConfig('http') private readonly http: HttpConfig,
  ) {}

  /** POST /api/invitations: a pending invitation to the same address is replaced. */
  async invite(
    input: CreateInvitationDto,
    admin: AuthUser,
  ): Promise<Created<CreatedInvitationResponse>> {
    const groups = await this.groups.resolveNames(input.groups ?? []);
    const { token, hash } = newLinkToken();
    const now = new Date();
    const row: InvitationRecord = {
      id: randomUUID(),
      tokenHash: hash,
      email: input.email,
      role: input.role,
      groups: groups.map((g) => g.name).sort(),
      invitedBy: admin.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      acceptedAt: null,
      acceptedUserId: null,
      revokedAt: null,
    };
    const link = consoleLink(this.http.publicUrl, '/invitation', token);
    const replaced = await this.db.transaction(async (tx) => {
      const revoked = await this.links.revokeOpenTo(input.email, now, tx);
      await this.links.insertInvitation(row, tx);
      tx.afterCommit(() => this.mailer.send(this.message(row, admin, link)));
      return revoked;
    });
    audit('invitation.sent', {
      actorId: admin.id,
      target: `invitation:${row.id}`,
      email: row.email,
      role: row.role,
      groups: row.groups,
      emailSent: this.mailer.enabled,
      replaced,
    });
    return new Created(
      {
        ...toInvitationResponse(row, admin.username, now),
        emailSent: this.mailer.enabled,
        link: this.mailer.enabled ? null : link,
      },
      locationOf('invitations', row.id),
    );
  }

  private message(row: InvitationRecord, admin: AuthUser, link: string) {
    const days = Math.round(INVITATION_TTL_MS / 86_400_000);
    return composeMessage({
      to: row.email,
      kind: 'invitation',
      subject: 'You are invited to kb',
      paragraphs: [
        `${admin.displayName} invited you to kb, the knowledge base, as ${row.role === 'admin' ? 'an administrator' : `an ${row.role}`}.`,
        `Open the link below to choose your username and password. It works once, for ${days} days.`,
      ],
      action: { label: 'Accept the invitation', url: link },
      after: ['If you did not expect this invitation, ignore this email.'],
    });
  }

  /** GET /api/invitations: those neither accepted nor revoked, newest first. */
  async list(): Promise<InvitationList> {
    const rows = await this.links.listOpenInvitations();
    const inviters = new Map<string, string>();
    for (const id of new Set(rows.map((r) => r.invitedBy).filter((id) => id !== null))) {
      const user = await this.users.findById(id);
      if (user) inviters.set(id, user.username);
    }
    const now = new Date();
    return {
      items: rows.map((r) =>
        toInvitationResponse(r, r.invitedBy ? (inviters.get(r.invitedBy) ?? null) : null, now),
      ),
    };
  }

  /** DELETE /api/invitations/{id}: the link stops working. */
  async revoke(id: string, admin: AuthUser): Promise<void> {
    const row = await this.links.findInvitation(id);
    if (!row || !(await this.links.revokeInvitation(id, new Date()))) {
      throw new NotFoundProblem('invitation', 'No pending invitation with this id.');
    }
    audit('invitation.revoked', {
      actorId: admin.id,
      target: `invitation:${id}`,
      email: row.email,
    });
  }

  /** POST /auth/invitations/lookup: what the invitation page shows; refuses a dead link. */
  async details(token: string): Promise<InvitationDetails> {
    const row = await this.open(token);
    return {
      email: row.email,
      role: row.role,
      suggestedUsername: await this.suggestUsername(row.email),
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  /** POST /auth/invitations/accept: creates the account and uses the link up. */
  async accept(input: AcceptInvitationDto): Promise<AccountReadyResponse> {
    const invitation = await this.open(input.token);
    const username = input.username;
    const taken = () =>
      new ConflictProblem('username_taken', `The username "${username}" is taken.`);
    if (await this.users.usernameTaken(username)) throw taken();
    const groups = await this.groups.resolveNames(invitation.groups);
    const now = new Date();
    const user = Object.assign(new UserEntity(), {
      id: randomUUID(),
      username,
      usernameKey: username,
      displayName: input.displayName ?? username,
      email: invitation.email,
      lastLoginAt: null,
      passwordHash: await this.passwords.hash(input.password),
      role: invitation.role,
      disabled: false,
      groups,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.db.transaction(async (tx) => {
        await this.users.save(user, tx);
        if (!(await this.links.acceptInvitation(invitation.id, user.id, now, tx))) {
          // Used (or revoked) by a request that came first: nothing of this one stays.
          throw this.gone(await this.links.findInvitation(invitation.id, tx), now);
        }
      });
    } catch (error) {
      if (!(error instanceof LinkGoneProblem) && (await this.users.usernameTaken(username))) {
        throw taken();
      }
      throw error;
    }
    this.cache.invalidateUser(user.id);
    audit('invitation.accepted', {
      actorId: user.id,
      target: `invitation:${invitation.id}`,
      userId: user.id,
      username,
      role: user.role,
      groups: groups.map((g) => g.name).sort(),
    });
    return { username };
  }

  /** The open, unexpired invitation of a link's token; a clear problem for any other. */
  private async open(token: string): Promise<InvitationRecord> {
    const row = await this.links.findInvitationByToken(linkTokenHash(token));
    const now = new Date();
    if (!row) {
      throw new NotFoundProblem(
        'invitation',
        'This invitation link is unknown. Check that the whole link was copied, or ask for a new invitation.',
      );
    }
    if (row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= now.getTime()) {
      throw this.gone(row, now);
    }
    return row;
  }

  private gone(row: InvitationRecord | null, now: Date): LinkGoneProblem {
    if (row?.acceptedAt) {
      return new LinkGoneProblem(
        'invitation_used',
        'This invitation was accepted already. Sign in with the username and password chosen then.',
      );
    }
    if (row?.revokedAt) {
      return new LinkGoneProblem(
        'invitation_revoked',
        'This invitation was withdrawn. Ask an administrator for a new one.',
      );
    }
    if (row && row.expiresAt.getTime() <= now.getTime()) {
      return new LinkGoneProblem(
        'invitation_expired',
        'This invitation has expired (links work for 7 days). Ask an administrator for a new one.',
      );
    }
    return new LinkGoneProblem('invitation_used', 'This invitation cannot be used any more.');
  }

  /** The address's local part as a username, with a number added when it is taken. */
  private async suggestUsername(email: string): Promise<string> {
    let base = canonicalUsername(email.slice(0, email.lastIndexOf('@')))
      .replace(/[^a-z0-9._-]/g, '')
      .replace(/^[._-]+/, '')
      .slice(0, 56);
    if (base.length < 2) base = `user${base}`;
    for (let n = 0; n < 50; n++) {
      const candidate = n === 0 ? base : `${base}${n + 1}`;
      if (!USERNAME_PATTERN.test(candidate) || hasRefusedUsernameCharacters(candidate)) continue;
      if (!(await this.users.usernameTaken(candidate))) return candidate;
    }
    return `${base}${randomUUID().slice(0, 6)}`;
  }
}
