import { useEffect, useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import type { Role } from '../../../api/types';
import { Field } from '../../../components/field';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useCurrentUser } from '../../../api/me';
import { formatDateTime, formatRelative } from '../../../lib/format';
import {
  useCreateUser,
  useResetTwoFactor,
  useUnlockUser,
  useUpdateUser,
  useUsers,
  type User,
} from '../api/people';
import { GroupChecks } from './group-checks';
import { InviteDialog, PendingInvitations } from './invitations';
import { ResetPasswordDialog, UserGroupsDialog } from './user-dialogs';

const ROLES: Role[] = ['reader', 'editor', 'admin'];

function CreateUserForm() {
  const create = useCreateUser();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('reader');
  const [groups, setGroups] = useState<string[]>([]);
  const problems = create.error instanceof ApiProblem ? create.error : null;
  const errors = (field: string) => problems?.errorsFor(field) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      username: username.trim(),
      password,
      role,
      groups,
      ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      ...(email.trim() ? { email: email.trim() } : {}),
    };
    create.mutate(body, {
      onSuccess: () => {
        setUsername('');
        setDisplayName('');
        setEmail('');
        setPassword('');
        setGroups([]);
      },
    });
  };

  return (
    <form className="admin__form" onSubmit={submit} aria-labelledby="new-user-title">
      <h2 id="new-user-title" className="section-title">
        New user
      </h2>
      <div className="admin__form-grid">
        <Field label="Username" errors={errors('username')}>
          <input
            className="input"
            required
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field label="Display name" errors={errors('displayName')}>
          <input
            className="input"
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
          />
        </Field>
        <Field label="Email" errors={errors('email')}>
          <input
            className="input"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label="Password" hint="At least 8 characters." errors={errors('password')}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
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
      </div>
      <GroupChecks legend="Groups" value={groups} onChange={setGroups} />
      {!problems?.errors.length && <ProblemMessage error={create.error} title="Not created." />}
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        Create user
      </button>
    </form>
  );
}

const hasFactor = (user: User) => user.twoFactor.totp || user.twoFactor.passkeys > 0;

/** The second factors a person has, in words. */
function factorsOf(user: User): string {
  const { totp, passkeys } = user.twoFactor;
  const parts = [
    ...(totp ? ['authenticator app'] : []),
    ...(passkeys ? [`${passkeys} passkey${passkeys === 1 ? '' : 's'}`] : []),
  ];
  return `Two-factor: ${parts.length ? parts.join(', ') : 'none'}`;
}

function UserRow({
  user,
  self,
  onGroups,
  onPassword,
}: {
  user: User;
  self: boolean;
  onGroups: () => void;
  onPassword: () => void;
}) {
  const update = useUpdateUser();
  const unlock = useUnlockUser();
  const resetTwoFactor = useResetTwoFactor();
  const change = (c: Parameters<typeof update.mutate>[0]['change']) =>
    update.mutate({ id: user.id, change: c });
  return (
    <tr className={user.disabled ? 'admin__row--disabled' : undefined}>
      <th scope="row">
        {user.username}
        <div className="admin__slug">{user.displayName}</div>
        <ProblemMessage error={update.error ?? unlock.error ?? resetTwoFactor.error} />
      </th>
      <td data-label="Email">{user.email ?? '—'}</td>
      <td data-label="Role">
        <select
          className="input input--small"
          aria-label={`Role of ${user.username}`}
          value={user.role}
          disabled={self || update.isPending}
          onChange={(e) => change({ role: e.target.value as Role })}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Groups">{user.groups.join(', ') || '—'}</td>
      <td data-label="Sign-in">{user.signIn.join(', ') || '—'}</td>
      <td data-label="Last sign-in">
        {user.lastLoginAt ? (
          <time dateTime={user.lastLoginAt} title={formatDateTime(user.lastLoginAt)}>
            {formatRelative(user.lastLoginAt)}
          </time>
        ) : (
          'Never'
        )}
      </td>
      <td data-label="Status">
        {user.disabled ? 'Disabled' : user.locked ? 'Locked (too many failed sign-ins)' : 'Active'}
        <div className="admin__factors">{factorsOf(user)}</div>
      </td>
      <td className="admin__actions">
        {user.locked && (
          <button
            type="button"
            className="button button--small button--primary"
            disabled={unlock.isPending}
            onClick={() => unlock.mutate(user.id)}
          >
            Unlock
          </button>
        )}
        <button
          type="button"
          className="button button--small"
          aria-label={`Groups of ${user.username}`}
          onClick={onGroups}
        >
          Groups
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={`Reset password of ${user.username}`}
          onClick={onPassword}
        >
          Reset password
        </button>
        <button
          type="button"
          className="button button--small"
          disabled={resetTwoFactor.isPending || !hasFactor(user)}
          onClick={() => resetTwoFactor.mutate(user.id)}
        >
          Reset two-factor
        </button>
        {!self && (
          <button
            type="button"
            className="button button--small button--danger-quiet"
            aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
            disabled={update.isPending}
            onClick={() => change({ disabled: !user.disabled })}
          >
            {user.disabled ? 'Enable' : 'Disable'}
          </button>
        )}
      </td>
    </tr>
  );
}

export function UsersScreen() {
  useDocumentTitle('Users');
  const me = useCurrentUser();
  const [filter, setFilter] = useState('');
  const [applied, setApplied] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setApplied(filter), 250);
    return () => clearTimeout(timer);
  }, [filter]);
  const users = useUsers(applied);
  const [groupsOf, setGroupsOf] = useState<User | null>(null);
  const [passwordOf, setPasswordOf] = useState<User | null>(null);
  const [inviting, setInviting] = useState(false);

  return (
    <section className="screen" aria-labelledby="users-title">
      <h1 id="users-title" className="screen__title">
        Users
      </h1>
      <p className="screen__lead">
        Who may sign in, with which role and groups. A disabled account cannot sign in and its
        tokens stop working.
      </p>
      <div className="admin__toolbar">
        <button type="button" className="button button--primary" onClick={() => setInviting(true)}>
          Invite
        </button>
      </div>
      {/* Out while the invitation dialog is open: its Email and Role are the only ones. */}
      {!inviting && <CreateUserForm />}
      <PendingInvitations />
      <h2 className="section-title">Accounts</h2>
      <Field label="Filter users" className="admin__filter">
        <input
          className="input"
          type="search"
          placeholder="Name or email"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      </Field>
      <ProblemMessage error={users.error} />
      {users.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Users"
          className="users-table"
          columns={['User', 'Email', 'Role', 'Groups', 'Sign-in', 'Last sign-in', 'Status']}
          actions
          rows={users.items}
          empty={applied.trim() ? `No user matches “${applied.trim()}”.` : undefined}
          rowKey={(user) => user.id}
          renderRow={(user) => (
            <UserRow
              user={user}
              self={user.id === me.id}
              onGroups={() => setGroupsOf(user)}
              onPassword={() => setPasswordOf(user)}
            />
          )}
        />
      )}
      <LoadMore list={users} />
      {groupsOf && <UserGroupsDialog user={groupsOf} onClose={() => setGroupsOf(null)} />}
      {passwordOf && <ResetPasswordDialog user={passwordOf} onClose={() => setPasswordOf(null)} />}
      {inviting && <InviteDialog onClose={() => setInviting(false)} />}
    </section>
  );
}

export default UsersScreen;
