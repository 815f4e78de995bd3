import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useAcceptInvitation, useInvitation } from '../api/password-links';
import { ssoSignInUrl, useSsoProviders } from '../api/providers';
import { linkToken } from '../model/link-token';
import { AuthCard } from './auth-card';
import { NewPasswordField } from './set-password-field';

function AcceptForm({
  token,
  email,
  role,
  suggestedUsername,
}: {
  token: string;
  email: string;
  role: string;
  suggestedUsername: string;
}) {
  const accept = useAcceptInvitation();
  const providers = useSsoProviders();
  const [username, setUsername] = useState(suggestedUsername);
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const problems = accept.error instanceof ApiProblem ? accept.error : null;
  const errors = (field: string) => problems?.errorsFor(field) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate({
      token,
      username: username.trim(),
      password,
      ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
    });
  };

  if (accept.isSuccess) {
    return (
      <AuthCard title="Welcome to kb">
        <p className="notice" role="status">
          Your account is ready. Sign in as <strong>{accept.data.username}</strong> with your new
          password.
        </p>
        <Link to="/login" className="button button--primary button--block">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Join kb" onSubmit={submit}>
      <p className="login__lead">
        You were invited as <strong>{role}</strong> with <strong>{email}</strong>. Choose how you
        sign in.
      </p>
      {!problems?.errors.length && <ProblemMessage error={accept.error} />}
      <Field
        label="Username"
        hint="2-64 letters, digits, “.”, “_” or “-”."
        errors={
          problems?.code === 'username_taken'
            ? [{ field: 'username', code: 'taken', message: problems.message }]
            : errors('username')
        }
      >
        <input
          className="input"
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.target.value)}
        />
      </Field>
      <Field
        label="Display name"
        hint="Optional: how others see you."
        errors={errors('displayName')}
      >
        <input
          className="input"
          name="display-name"
          autoComplete="name"
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
        />
      </Field>
      <NewPasswordField value={password} onChange={setPassword} errors={errors('password')} />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={accept.isPending}
      >
        Set password
      </button>
      {providers.data && providers.data.length > 0 && (
        <div className="login__sso" role="group" aria-label="Single sign-on">
          <p className="login__or">or, if your organisation signs you in</p>
          {providers.data.map((provider) => (
            <button
              key={provider.id}
              type="button"
              className="button button--block"
              onClick={() => window.location.assign(ssoSignInUrl(provider, '/'))}
            >
              Sign in with {provider.name}
            </button>
          ))}
        </div>
      )}
    </AuthCard>
  );
}

/** Where an invitation link opens: choose a username and a password (or single sign-on). */
export function InvitationScreen() {
  useDocumentTitle('Invitation');
  const token = linkToken(useLocation().hash);
  const invitation = useInvitation(token);

  if (!token || invitation.isError) {
    return (
      <AuthCard title="Invitation">
        {token ? (
          <ProblemMessage error={invitation.error} />
        ) : (
          <p className="problem" role="alert">
            This invitation link is incomplete. Open the whole link from the email.
          </p>
        )}
        <Link to="/login">Go to sign in</Link>
      </AuthCard>
    );
  }
  if (invitation.isPending) return <Spinner />;
  return <AcceptForm token={token} {...invitation.data} />;
}

export default InvitationScreen;
