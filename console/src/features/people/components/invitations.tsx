import { useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import type { Role } from '../../../api/types';
import { Dialog } from '../../../components/dialog';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { formatDateTime, formatRelative } from '../../../lib/format';
import {
  useInvitations,
  useInvite,
  useRevokeInvitation,
  type Invitation,
} from '../api/invitations';
import { GroupChecks } from './group-checks';

const ROLES: Role[] = ['reader', 'editor', 'admin'];

/** The link to pass on when the server sends no mail, absolute on this console's address. */
function absolute(link: string): string {
  return new URL(link, window.location.origin).href;
}

/** "Invite": an address, a role and groups; without mail, the link to pass on. */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('reader');
  const [groups, setGroups] = useState<string[]>([]);
  const [copied, setCopied] = useState(false);
  const problems = invite.error instanceof ApiProblem ? invite.error : null;
  const errors = (field: string) => problems?.errorsFor(field) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate({ email: email.trim(), role, groups });
  };

  if (invite.isSuccess) {
    const sent = invite.data;
    const link = sent.link ? absolute(sent.link) : null;
    return (
      <Dialog title="Invitation ready" onClose={onClose}>
        <div className="dialog__body">
          {link ? (
            <>
              <p className="notice" role="status">
                This server sends no email. Pass this link on to {sent.email}: it works once, until{' '}
                {formatDateTime(sent.expiresAt)}, and is not shown again.
              </p>
              <Field label="Invitation link">
                <input className="input" readOnly value={link} onFocus={(e) => e.target.select()} />
              </Field>
            </>
          ) : (
            <p className="notice" role="status">
              Invitation sent to {sent.email}. The link works once, until{' '}
              {formatDateTime(sent.expiresAt)}.
            </p>
          )}
          <div className="dialog__actions">
            {link && (
              <button
                type="button"
                className="button"
                onClick={() =>
                  void navigator.clipboard?.writeText(link).then(() => setCopied(true))
                }
              >
                {copied ? 'Copied' : 'Copy link'}
              </button>
            )}
            <button type="button" className="button button--primary" onClick={onClose} autoFocus>
              Done
            </button>
          </div>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title="Invite someone" onClose={onClose}>
      <form className="dialog__body" onSubmit={submit}>
        <Field label="Email" errors={errors('email')}>
          <input
            className="input"
            type="email"
            autoComplete="off"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Role" errors={errors('role')}>
          <select className="input" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <GroupChecks legend="Groups" value={groups} onChange={setGroups} />
        {!problems?.errors.length && <ProblemMessage error={invite.error} title="Not sent." />}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={invite.isPending}>
            Send invitation
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const revoke = useRevokeInvitation();
  return (
    <tr>
      <th scope="row">
        {invitation.email}
        <ProblemMessage error={revoke.error} />
      </th>
      <td data-label="Role">{invitation.role}</td>
      <td data-label="Groups">{invitation.groups.join(', ') || '—'}</td>
      <td data-label="Sent">
        <time dateTime={invitation.createdAt} title={formatDateTime(invitation.createdAt)}>
          {formatRelative(invitation.createdAt)}
        </time>
        {invitation.invitedBy ? ` by ${invitation.invitedBy}` : ''}
      </td>
      <td data-label="Status">
        {invitation.status === 'expired'
          ? 'Expired'
          : `Pending until ${formatDateTime(invitation.expiresAt)}`}
      </td>
      <td className="admin__actions">
        <button
          type="button"
          className="button button--small button--danger-quiet"
          aria-label={`Revoke the invitation of ${invitation.email}`}
          disabled={revoke.isPending}
          onClick={() => revoke.mutate(invitation.id)}
        >
          Revoke
        </button>
      </td>
    </tr>
  );
}

/** Invitations not accepted yet, each with Revoke; nothing when there are none. */
export function PendingInvitations() {
  const invitations = useInvitations();
  if (!invitations.data?.length) return <ProblemMessage error={invitations.error} />;
  return (
    <>
      <h2 className="section-title">Invitations</h2>
      <RecordTable
        caption="Pending invitations"
        className="users-table"
        columns={['Email', 'Role', 'Groups', 'Sent', 'Status']}
        actions
        rows={invitations.data}
        rowKey={(invitation) => invitation.id}
        renderRow={(invitation) => <InvitationRow invitation={invitation} />}
      />
    </>
  );
}
