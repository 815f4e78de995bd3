import { Global, Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** The SMTP sender, for every feature that mails people (invitations, resets, digests). */
@Global()
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
