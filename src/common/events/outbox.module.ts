import { Global, Module } from '@nestjs/common';
import { Outbox } from './outbox';

/** The transactional outbox, available to every feature (features record, webhooks join). */
@Global()
@Module({ providers: [Outbox], exports: [Outbox] })
export class OutboxModule {}
