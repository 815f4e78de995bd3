import { useState, type FormEvent } from 'react';
import { ApiProblem } from '../../../api/problem';
import { Field } from '../../../components/field';
import { ProblemMessage } from '../../../components/problem-message';
import { CodeField, RecoveryCodes, TotpSecret } from '../../../components/totp-setup';
import { formatRelative } from '../../../lib/format';
import { passkeyErrorMessage, passkeysSupported } from '../../../lib/passkeys';
import {
  useAddPasskey,
  useDisableTotp,
  useEnableTotp,
  useRemovePasskey,
  useStartTotp,
  useTwoFactor,
  type Passkey,
} from '../api/two-factor';

function TurnOffForm() {
  const disable = useDisableTotp();
  const [password, setPassword] = useState('');
  const problems = disable.error instanceof ApiProblem ? disable.error : null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    disable.mutate(password, { onSuccess: () => setPassword('') });
  };
  return (
    <form className="two-factor__form" onSubmit={submit} aria-label="Turn off two-factor">
      <Field label="Current password" errors={problems?.errorsFor('password') ?? []}>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <button type="submit" className="button" disabled={disable.isPending}>
        Turn off two-factor
      </button>
      {problems && problems.errors.length === 0 && <ProblemMessage error={disable.error} />}
    </form>
  );
}

/** TOTP: set up (secret beside its QR code, a first code, the recovery codes), or turn off. */
export function TwoFactorSection() {
  const status = useTwoFactor();
  const start = useStartTotp();
  const enable = useEnableTotp();
  const [code, setCode] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const enableProblems = enable.error instanceof ApiProblem ? enable.error : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    enable.mutate(code.trim(), {
      onSuccess: (answer) => {
        setRecoveryCodes(answer.recoveryCodes);
        setCode('');
        start.reset();
      },
    });
  };

  const on = status.data?.totp ?? false;
  const setupNote = 'Then enter the six digits the app shows to confirm.';
  return (
    <section className="account__section" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="section-title">
        Two-factor
      </h2>
      <ProblemMessage error={status.error ?? start.error} />
      {status.data && (
        <p className="account__note">
          {on
            ? `Two-factor sign-in is on: after your password, kb asks for a code from your authenticator app. ${status.data.recoveryCodesLeft} recovery code${status.data.recoveryCodesLeft === 1 ? '' : 's'} left.`
            : status.data.required
              ? 'Your account must use two-factor sign-in: set it up now.'
              : 'After your password, kb can ask for a code from an authenticator app on your phone.'}
        </p>
      )}
      {recoveryCodes && <RecoveryCodes codes={recoveryCodes} />}
      {status.data && !on && !start.data && (
        <button
          type="button"
          className="button button--primary"
          disabled={start.isPending}
          onClick={() => start.mutate()}
        >
          Set up two-factor
        </button>
      )}
      {!on && start.data && (
        <>
          <TotpSecret setup={start.data} />
          <p className="account__note">{setupNote}</p>
          <form className="two-factor__form" onSubmit={submit} aria-label="Confirm two-factor">
            <CodeField value={code} onChange={setCode} errors={enableProblems?.errorsFor('code')} />
            <button type="submit" className="button button--primary" disabled={enable.isPending}>
              Enable
            </button>
          </form>
          {enableProblems && enableProblems.errors.length === 0 && (
            <ProblemMessage error={enable.error} />
          )}
        </>
      )}
      {on && <TurnOffForm />}
    </section>
  );
}

function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const remove = useRemovePasskey();
  return (
    <li>
      <span className="passkeys__name">{passkey.name}</span>
      <span className="passkeys__meta">
        Added {formatRelative(passkey.createdAt)}
        {passkey.lastUsedAt ? `, used ${formatRelative(passkey.lastUsedAt)}` : ', not used yet'}
      </span>
      <button
        type="button"
        className="button button--small"
        disabled={remove.isPending}
        aria-label={`Remove passkey ${passkey.name}`}
        onClick={() => remove.mutate(passkey.id)}
      >
        Remove
      </button>
      <ProblemMessage error={remove.error} />
    </li>
  );
}

/** Passkeys: sign in without a password, or use one after it instead of a code. */
export function PasskeysSection() {
  const status = useTwoFactor();
  const add = useAddPasskey();
  const [name, setName] = useState('');
  const passkeys = status.data?.passkeys ?? [];
  const browserRefusal = passkeyErrorMessage(add.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(name.trim() || 'Passkey', { onSuccess: () => setName('') });
  };

  return (
    <section className="account__section" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title" className="section-title">
        Passkeys
      </h2>
      <p className="account__note">
        {passkeys.length === 0
          ? 'A passkey signs you in with your fingerprint, face or device PIN, without a password.'
          : 'Your passkeys sign you in without a password, or after it instead of a code.'}
      </p>
      {passkeys.length > 0 && (
        <ul className="passkeys" aria-label="Your passkeys">
          {passkeys.map((p) => (
            <PasskeyItem key={p.id} passkey={p} />
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form className="two-factor__form" onSubmit={submit} aria-label="Add a passkey">
          <Field label="Passkey name" hint="Optional: which device it is on.">
            <input
              className="input"
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </Field>
          <button type="submit" className="button" disabled={add.isPending}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p className="account__note">This browser cannot use passkeys here.</p>
      )}
      {browserRefusal ? (
        <p className="problem" role="alert">
          {browserRefusal}
        </p>
      ) : (
        <ProblemMessage error={add.error} />
      )}
    </section>
  );
}
