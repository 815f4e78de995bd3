import { useState, type FormEvent } from 'react';
import { ApiProblem, isProblem } from '../../../api/problem';
import { ProblemMessage } from '../../../components/problem-message';
import { CodeField, RecoveryCodes, TotpSecret } from '../../../components/totp-setup';
import { passkeyErrorMessage } from '../../../lib/passkeys';
import {
  usePasskeySignIn,
  useFinishEnrolment,
  useSignedIn,
  useStartEnrolment,
  useVerifyCode,
  type PendingStep,
} from '../api/two-factor';

function codeError(error: unknown): string | null {
  if (isProblem(error, 401) && error.code === 'invalid_code')
    return 'The code is wrong, already used or too old. Try the next one.';
  if (isProblem(error, 401) && error.code === 'no_pending_sign_in')
    return 'This sign-in took too long. Start again with your password.';
  if (isProblem(error, 429)) return 'Too many failed sign-ins. Try again later.';
  return null;
}

/** After the password: a code (or recovery code) in one field, or a passkey. */
function CodeStep({ step, onDone }: { step: PendingStep; onDone: () => void }) {
  const verify = useVerifyCode();
  const passkey = usePasskeySignIn();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(code.trim(), { onSuccess: onDone });
  };
  const message = codeError(verify.error ?? passkey.error) ?? passkeyErrorMessage(passkey.error);
  const hasCode = step.methods.includes('totp');
  return (
    <>
      <p className="login__hint">
        {hasCode
          ? 'Enter the code from your authenticator app, or one of your recovery codes.'
          : 'Use your passkey to finish signing in.'}
      </p>
      {message ? (
        <p className="problem" role="alert">
          {message}
        </p>
      ) : (
        <ProblemMessage error={verify.error ?? passkey.error} />
      )}
      {hasCode && (
        <form className="login__step" onSubmit={submit} aria-label="Second factor">
          <CodeField value={code} onChange={setCode} autoFocus />
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={verify.isPending}
          >
            Verify
          </button>
        </form>
      )}
      {step.methods.includes('passkey') && (
        <button
          type="button"
          className="button button--block"
          disabled={passkey.isPending}
          onClick={() => passkey.mutate(undefined, { onSuccess: onDone })}
        >
          Use a passkey
        </button>
      )}
    </>
  );
}

/** REQUIRE_2FA: a person without a factor sets TOTP up before anything else. */
function EnrolStep({ onDone }: { onDone: () => void }) {
  const start = useStartEnrolment();
  const finish = useFinishEnrolment();
  const signedIn = useSignedIn();
  const [code, setCode] = useState('');
  const problems = finish.error instanceof ApiProblem ? finish.error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    finish.mutate(code.trim());
  };
  if (finish.data) {
    const { me, recoveryCodes } = finish.data;
    return (
      <>
        <RecoveryCodes codes={recoveryCodes} />
        <button
          type="button"
          className="button button--primary button--block"
          onClick={() => {
            signedIn(me);
            onDone();
          }}
        >
          Continue
        </button>
      </>
    );
  }
  return (
    <>
      <p className="login__hint">
        Your account must use two-factor sign-in. Set it up with an authenticator app to go on.
      </p>
      <ProblemMessage error={start.error} />
      {!start.data ? (
        <button
          type="button"
          className="button button--primary button--block"
          disabled={start.isPending}
          onClick={() => start.mutate()}
        >
          Set up two-factor
        </button>
      ) : (
        <form className="login__step" onSubmit={submit} aria-label="Set up two-factor">
          <TotpSecret setup={start.data} />
          <CodeField value={code} onChange={setCode} errors={problems?.errorsFor('code')} />
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={finish.isPending}
          >
            Enable
          </button>
          {problems && problems.errors.length === 0 && <ProblemMessage error={finish.error} />}
        </form>
      )}
    </>
  );
}

/** The step a correct password left, with a way back to the password. */
export function SecondStep({
  step,
  onDone,
  onRestart,
}: {
  step: PendingStep;
  onDone: () => void;
  onRestart: () => void;
}) {
  return (
    <>
      {step.step === 'enrol' ? (
        <EnrolStep onDone={onDone} />
      ) : (
        <CodeStep step={step} onDone={onDone} />
      )}
      <button type="button" className="button button--quiet button--block" onClick={onRestart}>
        Start again
      </button>
    </>
  );
}
