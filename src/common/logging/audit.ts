import { Logger } from '@nestjs/common';
import { currentRequestId } from '../http/request-context';

export const AUDIT_CONTEXT = 'audit';

/** What the audit log records: sign-ins, credentials, accounts, and changes too big to undo. */
export type AuditEvent =
  | 'auth.login.succeeded'
  | 'auth.login.failed'
  | 'auth.login.refused'
  | 'auth.throttled'
  | 'auth.logout'
  | 'auth.sso.login.succeeded'
  | 'auth.sso.login.failed'
  | 'sso.user.provisioned'
  | 'sso.mapping.applied'
  | 'sso.identity.linked'
  | 'invitation.sent'
  | 'invitation.accepted'
  | 'invitation.revoked'
  | 'auth.password_reset.requested'
  | 'auth.password_reset.used'
  | 'auth.password_reset.refused'
  | 'token.created'
  | 'token.revoked'
  | 'session.ended'
  | 'user.created'
  | 'user.updated'
  | 'user.unlocked'
  | 'two_factor.enabled'
  | 'two_factor.disabled'
  | 'two_factor.recovery_code.used'
  | 'two_factor.reset'
  | 'passkey.added'
  | 'passkey.removed'
  | 'group.created'
  | 'import.finished'
  | 'page.binned'
  | 'page.purged'
  | 'page.restored'
  | 'page.moved'
  | 'protected_path.bypassed'
  | 'protected_paths.replaced'
  | 'change_request.merged'
  | 'redirect.deleted'
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'webhook.redelivered';

export interface AuditFields {
  /** Who did it: a user id, or null (an anonymous sign-in attempt, the CLI, start-up). */
  actorId: string | null;
  /** What it was done to, as `<kind>:<id>` (`user:<uuid>`, `page:<uuid>`, `username:<name>`). */
  target: string;
  /** Further facts (never a secret): counts, a slug, the changed field names, an address. */
  [detail: string]: unknown;
}

const logger = new Logger(AUDIT_CONTEXT);

/**
 * One JSON line per event with `"context":"audit"`, the event, actor, target and the id of the
 * request it happened in (null outside a request: the CLI). Call it after the change committed.
 */
export function audit(event: AuditEvent, fields: AuditFields): void {
  logger.log({ msg: event, event, ...fields, requestId: currentRequestId() ?? null });
}
