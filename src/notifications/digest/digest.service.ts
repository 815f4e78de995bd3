import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthUser } from '../../common/auth/auth-user';
import { InjectConfig } from '../../common/config/app-config';
import type { HttpConfig } from '../../common/config/http-config';
import type { MailConfig } from '../../common/config/mail-config';
import { composeMessage } from '../../common/mail/message';
import { Mailer } from '../../common/mail/mailer';
import { UsersService } from '../../auth/public-api';
import type { NotificationResponse } from '../notifications.mapper';
import { NotificationsService } from '../notifications.service';
import { DigestRepository } from './digest.repository';

export const DIGEST_JOB = 'mail.digest';
/** Items one digest lists; it says how many more there are. */
const DIGEST_ITEMS = 50;
const SUBSCRIBER_BATCH = 200;
/** A run that has not finished after this long is taken as dead: another instance may run. */
const LEASE_MS = 30 * 60_000;

export interface DigestSettings {
  enabled: boolean;
  /** Where it goes (the account's email); null: none set, nothing is sent. */
  email: string | null;
  /** Whether this server can send mail at all (SMTP configured). */
  mailConfigured: boolean;
}

/** One line of the digest for a notice, in words. */
export function digestLine(n: NotificationResponse): string {
  const who = n.actor ? `${n.actor.displayName}` : 'kb';
  const page = n.page ? `"${n.page.title || n.page.slug}"` : '';
  switch (n.kind) {
    case 'page.updated':
      return `${who} updated ${page}`;
    case 'page.binned':
      return `${who} moved ${page} to the bin`;
    case 'page.moved':
      return `${who} moved ${page}`;
    case 'page.review_due':
      return `${page} is due for review`;
    case 'import.finished':
      return 'An import finished';
    default:
      return `${n.kind} ${page}`.trim();
  }
}

/**
 * The daily email digest of a person's inbox, for those who opted in: the unread notices since
 * the last digest that they may still see. Every instance looks every minute (or the interval,
 * when shorter); a lease row in the database lets exactly one of them run each period.
 */
@Injectable()
export class DigestService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Digest');
  private readonly owner = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number | null> | null = null;

  constructor(
    private readonly digests: DigestRepository,
    private readonly notifications: NotificationsService,
    private readonly users: UsersService,
    private readonly mailer: Mailer,
    @InjectConfig('http') private readonly http: HttpConfig,
    @InjectConfig('mail') private readonly mail: MailConfig,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.mail.digestIntervalSeconds;
    if (seconds <= 0 || !this.mailer.enabled) return;
    this.timer = setInterval(
      () =>
        void this.runIfDue().catch((error: unknown) =>
          this.logger.error(`The digest run failed: ${String(error)}`),
        ),
      Math.min(seconds, 60) * 1000,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  async settings(user: AuthUser): Promise<DigestSettings> {
    const account = await this.users.load(user.id);
    return {
      enabled: await this.digests.isSubscribed(user.id),
      email: account.email,
      mailConfigured: this.mailer.enabled,
    };
  }

  async setEnabled(user: AuthUser, enabled: boolean): Promise<DigestSettings> {
    await this.digests.set(user.id, enabled, new Date());
    return this.settings(user);
  }

  /**
   * Runs the digest when this period's run is due and no other instance holds it; answers how
   * many digests went out, or null when it was not this instance's turn.
   */
  runIfDue(now = new Date()): Promise<number | null> {
    this.running ??= this.claimAndRun(now).finally(() => (this.running = null));
    return this.running;
  }

  private async claimAndRun(now: Date): Promise<number | null> {
    if (!this.mailer.enabled) return null;
    if (!(await this.digests.claim(DIGEST_JOB, this.owner, now, LEASE_MS))) return null;
    try {
      return await this.sendAll(now);
    } finally {
      // Without a schedule (0), a run started by hand still counts for a day.
      const period = this.mail.digestIntervalSeconds || 86_400;
      const next = new Date(now.getTime() + period * 1000);
      await this.digests.release(DIGEST_JOB, this.owner, new Date(), next);
    }
  }

  /** One digest per subscriber with unread, visible notices since their last one. */
  private async sendAll(now: Date): Promise<number> {
    let sent = 0;
    let after = '';
    for (;;) {
      const batch = await this.digests.listSubscribers(after, SUBSCRIBER_BATCH);
      for (const subscriber of batch) {
        try {
          if (await this.sendOne(subscriber.userId, subscriber.coveredUntil, now)) sent++;
        } catch (error) {
          this.logger.error(`A digest could not be prepared: ${String(error)}`);
        }
      }
      if (batch.length < SUBSCRIBER_BATCH) break;
      after = batch[batch.length - 1].userId;
    }
    this.logger.log(`Digest run: ${sent} digest(s) sent`);
    return sent;
  }

  private async sendOne(userId: string, since: Date, now: Date): Promise<boolean> {
    const user = await this.users.findActiveById(userId);
    if (!user?.email) return false;
    const viewer: AuthUser = {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      role: user.role,
      groups: (user.groups ?? []).map((g) => g.name),
      via: 'session',
    };
    const { items, total } = await this.notifications.unreadSince(viewer, since, DIGEST_ITEMS);
    await this.digests.markCovered(user.id, now);
    if (total === 0) return false;
    const base = this.http.publicUrl ?? '';
    const lines = items.map((n) => {
      const link = n.page ? ` — ${base}/wiki/${n.page.slug}` : '';
      return `• ${digestLine(n)}${link}`;
    });
    if (total > items.length) lines.push(`…and ${total - items.length} more.`);
    this.mailer.send(
      composeMessage({
        to: user.email,
        kind: 'digest',
        subject: `kb: ${total} unread notification${total === 1 ? '' : 's'}`,
        paragraphs: [
          `Hello ${user.displayName}, this is what happened in kb for you:`,
          lines.join('\n'),
        ],
        action: { label: 'Open your inbox', url: `${base}/notifications` },
        after: ['You get this daily digest because you turned it on in your kb account settings.'],
      }),
    );
    return true;
  }
}
