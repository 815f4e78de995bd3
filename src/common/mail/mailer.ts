import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { InjectConfig } from '../config/app-config';
import type { MailConfig } from '../config/mail-config';

/** One email: plain text and a simple HTML part saying the same. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What it is, for the log (`invitation`, `password_reset`, `digest`); never its content. */
  kind: string;
}

/** Waits before the 2nd, 3rd and 4th attempt: a mail server's short outage or greylisting. */
export const RETRY_DELAYS_MS = [2_000, 15_000, 60_000];

/** `smtp://user:secret@host:25` as the log may show it: without the credentials. */
export function redactedSmtpUrl(raw: string): string {
  const url = new URL(raw);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}

/** `a@example.com` as the log shows it: the domain only. */
function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/**
 * Sends mail through SMTP (SMTP_URL, MAIL_FROM) with nodemailer. `send` never waits for the
 * server: callers hand a message over after their change committed, and a refused or failed
 * attempt is tried again a few times with growing pauses; a message that still fails is
 * logged (kind and recipient's domain, never the link it carries) and dropped.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(@InjectConfig('mail') private readonly mail: MailConfig) {
    const { smtpUrl } = mail;
    this.transport = smtpUrl
      ? createTransport(smtpUrl, {
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 30_000,
        })
      : null;
  }

  /** Whether SMTP is configured: without it no mail leaves and password reset is off. */
  get enabled(): boolean {
    return this.transport !== null;
  }

  /** Queues `message` (a no-op without SMTP); never throws, never waits for the server. */
  send(message: MailMessage): void {
    if (!this.transport || this.closed) return;
    this.attempt(message, 0);
  }

  /** Resolves once every attempt in flight settled (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private attempt(message: MailMessage, failures: number): void {
    const run = this.deliver(message, failures).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async deliver(message: MailMessage, failures: number): Promise<void> {
    try {
      await this.transport!.sendMail({
        from: this.mail.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      this.logger.log(`Sent ${message.kind} mail to a recipient at ${domainOf(message.to)}`);
    } catch (error) {
      const reason = errorSummary(error);
      const delay = RETRY_DELAYS_MS[failures];
      if (delay === undefined || this.closed) {
        this.logger.error(
          `Gave up sending ${message.kind} mail to a recipient at ${domainOf(message.to)} after ${failures + 1} attempts: ${reason}`,
        );
        return;
      }
      this.logger.warn(
        `Sending ${message.kind} mail failed (attempt ${failures + 1}), trying again in ${delay / 1000} s: ${reason}`,
      );
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(message, failures + 1);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    if (this.timers.size > 0) {
      this.logger.warn(`${this.timers.size} mail(s) waiting for a retry were dropped at shutdown`);
    }
    this.timers.clear();
    await this.idle();
    this.transport?.close();
  }
}

/** The server's answer or the network error, without anything the transport was given. */
function errorSummary(error: unknown): string {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  if (e.responseCode) return `${e.code ?? 'EMESSAGE'} ${e.responseCode} ${e.response ?? ''}`.trim();
  return e.code ?? e.message ?? String(error);
}
