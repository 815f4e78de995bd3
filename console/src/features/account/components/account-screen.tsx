import { useEffect, useState, type FormEvent } from 'react';
import { DigestSection } from './digest-section';
import { Link } from 'react-router';
import { ApiProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { LoadMore } from '../../../components/load-more';
import { ProblemMessage } from '../../../components/problem-message';
import { RecordTable } from '../../../components/record-table';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { formatDateTime, formatRelative } from '../../../lib/format';
import { paths } from '../../../lib/slugs';
import { useToggleWatch, useWatches } from '../../../api/watches';
import { useTokens } from '../../../api/tokens';
import {
  useAccount,
  useChangePassword,
  useEndOtherSessions,
  useEndSession,
  useSessions,
  useUpdateAccount,
  type Account,
  type Session,
} from '../api/account';
import { PasskeysSection, TwoFactorSection } from './two-factor-sections';
import { AppsSection } from './apps-section';

function ProfileForm({ account }: { account: Account }) {
  const update = useUpdateAccount();
  const [displayName, setDisplayName] = useState(account.displayName);
  const [email, setEmail] = useState(account.email ?? '');
  const [saved, setSaved] = useState(false);
  const problems = update.error instanceof ApiProblem ? update.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    update.mutate(
      { displayName: displayName.trim(), email: email.trim() || null },
      { onSuccess: () => setSaved(true) },
    );
  };

  return (
    <form className="account__form" onSubmit={submit} aria-labelledby="profile-title">
      <h2 id="profile-title" className="section-title">
        Profile
      </h2>
      <Field label="Display name" errors={problems?.errorsFor('displayName') ?? []}>
        <input
          className="input"
          required
          maxLength={128}
          autoComplete="name"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </Field>
      <Field
        label="Email"
        hint="Optional; administrators see it on the users screen."
        errors={problems?.errorsFor('email') ?? []}
      >
        <input
          className="input"
          type="email"
          maxLength={254}
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      {!problems?.errors.length && <ProblemMessage error={update.error} title="Not saved." />}
      <div className="account__actions">
        <button type="submit" className="button button--primary" disabled={update.isPending}>
          Save
        </button>
        <p role="status" className="account__status">
          {saved ? 'Saved.' : ''}
        </p>
      </div>
    </form>
  );
}

function endedSentence(count: number): string {
  if (count === 0) return 'Your password is changed. You had no other sessions.';
  const sessions = count === 1 ? '1 other session was' : `${count} other sessions were`;
  return `Your password is changed. ${sessions} signed out; sign in there with the new password.`;
}

function PasswordForm() {
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const problems = change.error instanceof ApiProblem ? change.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: ({ sessionsEnded }) => {
          setCurrentPassword('');
          setNewPassword('');
          setDone(endedSentence(sessionsEnded));
        },
      },
    );
  };

  return (
    <form className="account__form" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title" className="section-title">
        Password
      </h2>
      <p className="account__note">Changing it signs you out everywhere else.</p>
      <Field label="Current password" errors={problems?.errorsFor('currentPassword') ?? []}>
        <input
          className="input"
          type="password"
          required
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
        />
      </Field>
      <Field
        label="New password"
        hint="At least 8 characters."
        errors={problems?.errorsFor('newPassword') ?? []}
      >
        <input
          className="input"
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
        />
      </Field>
      {!problems?.errors.length && (
        <ProblemMessage error={change.error} title="Password not changed." />
      )}
      <div className="account__actions">
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          Change password
        </button>
      </div>
      <p role="status" className="account__status">
        {done ?? ''}
      </p>
    </form>
  );
}

function SessionRow({ session }: { session: Session }) {
  const end = useEndSession();
  return (
    <tr>
      <th scope="row">
        {session.browser}
        {session.current && <span className="account__this">This session</span>}
        <ProblemMessage error={end.error} />
      </th>
      <td data-label="Signed in with">{session.method}</td>
      <td data-label="Address">{session.ip ?? '—'}</td>
      <td data-label="Last seen">
        <time dateTime={session.lastSeenAt} title={formatDateTime(session.lastSeenAt)}>
          {session.current ? 'Now' : formatRelative(session.lastSeenAt)}
        </time>
      </td>
      <td className="row-actions">
        {!session.current && (
          <button
            type="button"
            className="button button--small"
            disabled={end.isPending}
            onClick={() => end.mutate(session.id)}
          >
            Sign out
          </button>
        )}
      </td>
    </tr>
  );
}

function SessionsRegion() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const [ended, setEnded] = useState<string | null>(null);
  const others = sessions.items.filter((s) => !s.current).length;

  useEffect(() => {
    if (others > 0) setEnded(null);
  }, [others]);

  return (
    <section className="account__section" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="section-title">
        Sessions
      </h2>
      <p className="account__note">
        Where you are signed in. Signing a session out ends it at once.
      </p>
      <ProblemMessage error={sessions.error ?? endOthers.error} />
      {sessions.isPending ? (
        <Spinner />
      ) : (
        <RecordTable
          caption="Your sessions"
          columns={['Browser', 'Signed in with', 'Address', 'Last seen']}
          actions
          rows={sessions.items}
          rowKey={(s) => s.id}
          renderRow={(s) => <SessionRow session={s} />}
        />
      )}
      <LoadMore list={sessions} />
      <div className="account__actions">
        <button
          type="button"
          className="button"
          disabled={endOthers.isPending || others === 0}
          onClick={() =>
            endOthers.mutate(undefined, {
              onSuccess: () => setEnded('Signed out everywhere else.'),
            })
          }
        >
          Sign out everywhere else
        </button>
        <p role="status" className="account__status">
          {ended ?? ''}
        </p>
      </div>
    </section>
  );
}

function TokensSection() {
  const tokens = useTokens();
  const count = tokens.items.length;
  return (
    <section className="account__section" aria-labelledby="tokens-title">
      <h2 id="tokens-title" className="section-title">
        Access tokens
      </h2>
      <p className="account__note">
        {tokens.isPending
          ? 'Reading your tokens…'
          : count === 0
            ? 'You have no personal access tokens.'
            : `You have ${count}${tokens.hasNextPage ? '+' : ''} personal access token${count === 1 ? '' : 's'}: ${tokens.items
                .slice(0, 3)
                .map((t) => t.name)
                .join(', ')}${count > 3 ? ', …' : ''}.`}
      </p>
      <Link to={paths.tokens()} className="button">
        Manage access tokens
      </Link>
    </section>
  );
}

/** What the person watches: pages and folders whose edits, moves and binning reach the inbox. */
function WatchingSection() {
  const watches = useWatches();
  const toggle = useToggleWatch();
  const items = watches.data?.items ?? [];
  return (
    <section className="account__section" aria-labelledby="watching-title">
      <h2 id="watching-title" className="section-title">
        Watching
      </h2>
      {watches.isPending ? (
        <p className="account__note">Reading what you watch…</p>
      ) : items.length === 0 ? (
        <p className="account__note">
          You watch no pages. “Watch” on a page tells you of its edits, moves and binning.
        </p>
      ) : (
        <ul className="account__watches">
          {items.map((watch) => (
            <li key={`${watch.slug}:${watch.subtree}`}>
              <Link to={paths.page(watch.slug)}>{watch.slug}</Link>
              {watch.subtree ? ' and the pages under it ' : ' '}
              <button
                type="button"
                className="button"
                disabled={toggle.isPending}
                aria-label={`Stop watching ${watch.slug}${watch.subtree ? ' and the pages under it' : ''}`}
                onClick={() =>
                  toggle.mutate({ watch: { slug: watch.slug, subtree: watch.subtree }, on: false })
                }
              >
                Stop watching
              </button>
            </li>
          ))}
        </ul>
      )}
      <ProblemMessage error={watches.error ?? toggle.error} />
    </section>
  );
}

/** The signed-in person's own account: profile, password, sessions, tokens, apps, watches. */
export function AccountScreen() {
  useDocumentTitle('Account');
  const account = useAccount();

  return (
    <section className="screen account" aria-labelledby="account-title">
      <h1 id="account-title" className="screen__title">
        Account
      </h1>
      <ProblemMessage error={account.error} />
      {account.isPending || !account.data ? (
        !account.error && <Spinner />
      ) : (
        <>
          <p className="screen__lead">
            Signed in as <strong>{account.data.username}</strong> ({account.data.role}
            {account.data.groups.length ? `; groups ${account.data.groups.join(', ')}` : ''}).
          </p>
          <div className="account__grid">
            <ProfileForm account={account.data} />
            <PasswordForm />
          </div>
          <TwoFactorSection />
          <PasskeysSection />
          <SessionsRegion />
          <TokensSection />
          <AppsSection />
          <WatchingSection />
          <DigestSection />
        </>
      )}
    </section>
  );
}

export default AccountScreen;
