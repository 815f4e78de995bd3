import { useState, type FormEvent } from 'react';
import { paths } from '../../../lib/routes';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { isProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { useLogin, useMe } from '../../../api/me';
import { usePasswordResetStatus } from '../api/password-links';
import { ssoErrorMessage, ssoSignInUrl, useSsoProviders } from '../api/providers';
import { useDocumentTitle } from '../../../components/use-document-title';
import { safeNext } from '../model/safe-next';
import { passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import { pendingStep, usePasskeySignIn } from '../api/two-factor';
import { SecondStep } from './second-step';

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m <= 1 ? 'a minute' : `${m} minutes`;
}

function loginError(error: unknown): string | null {
  if (!error) return null;
  if (isProblem(error, 401))
    return 'The username or password is wrong, or the account is disabled.';
  if (isProblem(error, 429)) {
    const wait = error.retryAfterSeconds;
    return `Too many failed sign-ins. Try again in ${wait ? minutes(wait) : 'a few minutes'}.`;
  }
  return null;
}

export function LoginScreen() {
  const [params] = useSearchParams();
  // Only a path of this site may be the place to return to after signing in.
  const next = safeNext(params.get('next'), window.location.origin);
  const expired = params.get('expired') === '1';
  const ssoError = ssoErrorMessage(params.get('sso_error'));
  const me = useMe();
  const login = useLogin();
  const providers = useSsoProviders();
  const resetEnabled = usePasswordResetStatus().data === true;
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const passkey = usePasskeySignIn();
  const step = pendingStep(login.error);

  if (me.data) return <Navigate to={next} replace />;
  const done = () => navigate(next, { replace: true });

  if (step) {
    return (
      <main className="login">
        <div className="login__card" role="group" aria-labelledby="login-title">
          <div className="login__brand" aria-hidden="true">
            kb
          </div>
          <h1 id="login-title" className="login__title">
            Sign in to kb
          </h1>
          <SecondStep step={step} onDone={done} onRestart={() => login.reset()} />
        </div>
      </main>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ username: username.trim(), password }, { onSuccess: done });
  };
  const message = loginError(login.error) ?? passkeyErrorMessage(passkey.error);

  return (
    <main className="login">
      <form className="login__card" onSubmit={submit} aria-labelledby="login-title">
        <div className="login__brand" aria-hidden="true">
          kb
        </div>
        <h1 id="login-title" className="login__title">
          Sign in to kb
        </h1>
        {expired && !login.error && (
          <p className="notice" role="status">
            Your session has ended. Sign in again to continue where you were.
          </p>
        )}
        {ssoError && !login.error && (
          <p className="problem" role="alert">
            {ssoError}
          </p>
        )}
        {message ? (
          <p className="problem" role="alert">
            {message}
          </p>
        ) : (
          <ProblemMessage error={login.error ?? passkey.error} />
        )}
        <Field label="Username">
          <input
            className="input"
            name="username"
            autoComplete="username"
            autoFocus
            required
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field label="Password">
          <input
            className="input"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        {resetEnabled && (
          <p className="login__link-row">
            <Link to={paths.forgotPassword()}>Forgot password?</Link>
          </p>
        )}
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={login.isPending}
        >
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {passkeysSupported() && (
          <button
            type="button"
            className="button button--block"
            disabled={passkey.isPending}
            onClick={() => passkey.mutate(undefined, { onSuccess: done })}
          >
            Sign in with a passkey
          </button>
        )}
        {providers.data && providers.data.length > 0 && (
          <div className="login__sso" role="group" aria-label="Single sign-on">
            <p className="login__or">or</p>
            {providers.data.map((provider) => (
              // A script navigation, not a form: the console's CSP limits where forms may go,
              // and the sign-in continues at the provider.
              <button
                key={provider.id}
                type="button"
                className="button button--block"
                onClick={() => window.location.assign(ssoSignInUrl(provider, next))}
              >
                Sign in with {provider.name}
              </button>
            ))}
          </div>
        )}
      </form>
    </main>
  );
}
