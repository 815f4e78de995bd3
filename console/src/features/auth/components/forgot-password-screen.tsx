import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiProblem, isProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { Spinner } from '../../../components/spinner';
import { useDocumentTitle } from '../../../components/use-document-title';
import { usePasswordResetStatus, useRequestPasswordReset } from '../api/password-links';
import { AuthCard } from './auth-card';

/** "Forgot password?": the address to mail a reset link to. */
export function ForgotPasswordScreen() {
  useDocumentTitle('Forgot password');
  const status = usePasswordResetStatus();
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const problems = request.error instanceof ApiProblem ? request.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate(email.trim());
  };

  if (status.isPending) return <Spinner />;
  if (status.data === false) {
    return (
      <AuthCard title="Forgot password">
        <p className="problem" role="alert">
          Password reset by email is off on this server. Ask an administrator to set a new password
          for you.
        </p>
        <Link to="/login">Back to sign in</Link>
      </AuthCard>
    );
  }
  if (request.isSuccess) {
    return (
      <AuthCard title="Check your email">
        <p className="notice" role="status">
          {request.data.detail}
        </p>
        <Link to="/login">Back to sign in</Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Forgot password" onSubmit={submit}>
      <p className="login__lead">
        Enter the email address of your account: we send you a link to set a new password.
      </p>
      {isProblem(request.error, 429) ? (
        <p className="problem" role="alert">
          Too many requests for a reset link. Try again later.
        </p>
      ) : (
        !problems?.errors.length && <ProblemMessage error={request.error} />
      )}
      <Field label="Email" errors={problems?.errorsFor('email') ?? []}>
        <input
          className="input"
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={request.isPending}
      >
        Send link
      </button>
      <Link to="/login" className="login__aside">
        Back to sign in
      </Link>
    </AuthCard>
  );
}

export default ForgotPasswordScreen;
