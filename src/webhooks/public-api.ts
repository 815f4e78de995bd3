/**
 * What other modules may use of webhooks (docs/CONTRACTS.md): its Nest module and the event
 * stream, which MCP resource subscriptions follow (one visibility-filtered poll of the event
 * log for every process). `npm run lint` refuses an import of any other file from outside it.
 */
export { WebhooksModule } from './webhooks.module';
export { EventStreamService } from './event-stream.service';
