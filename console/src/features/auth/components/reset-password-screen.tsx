import { useState, type FormEvent } from 'react';
import { paths } from '../../../lib/routes';
import { Link, useLocation } from 'react-router';
import { ApiProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { useDocumentTitle } from '../../../components/use-document-title';
import { useResetPassword } from '../api/password-links';
import { linkToken } from '../model/link-token';
import { AuthCard } from './auth-card';
import { NewPasswordField } from './set-password-field';

/** Where a reset link opens: a new password, then on to sign in. */
export function ResetPasswordScreen() {
  useDocumentTitle('Reset your password');
  const token = linkToken(useLocation().hash);
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const problems = reset.error instanceof ApiProblem ? reset.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate({ token, password });
  };

  if (!token) {
    return (
      <AuthCard title="Reset your password">
        <p className="problem" role="alert">
          This link is incomplete. Open the whole link from the email, or ask for a new one.
        </p>
        <Link to={paths.forgotPassword()}>Ask for a new link</Link>
      </AuthCard>
    );
  }
  if (reset.isSuccess) {
    return (
      <AuthCard title="Password set">
        <p className="notice" role="status">
          Your password is set and you were signed out everywhere. Sign in as{' '}
          <strong>{reset.data.username}</strong> with it.
        </p>
        <Link to="/login" className="button button--primary button--block">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" onSubmit={submit}>
      {!problems?.errors.length && <ProblemMessage error={reset.error} />}
      {problems && [404, 410].includes(problems.status) && (
        <Link to={paths.forgotPassword()}>Ask for a new link</Link>
      )}
      <NewPasswordField
        value={password}
        onChange={setPassword}
        errors={problems?.errorsFor('password') ?? []}
        autoFocus
      />
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={reset.isPending}
      >
        Set password
      </button>
    </AuthCard>
  );
}

export default ResetPasswordScreen;
