import type { FieldError } from '../api/problem';
import { Field } from './field';

/** The secret of a TOTP setup: its QR code for an authenticator app, and as text beside it. */
export function TotpSecret({ setup }: { setup: { secret: string; qrCode: string } }) {
  return (
    <div className="totp">
      <img
        className="totp__qr"
        src={setup.qrCode}
        width={176}
        height={176}
        alt="QR code for your authenticator app"
      />
      <div className="totp__text">
        <p>Scan the code with an authenticator app, or type this secret into it:</p>
        <p>
          <code className="totp__secret">{setup.secret}</code>
        </p>
      </div>
    </div>
  );
}

/** The recovery codes, shown once right after two-factor sign-in was turned on. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="recovery" role="region" aria-labelledby="recovery-title">
      <h3 id="recovery-title" className="recovery__title">
        Recovery codes
      </h3>
      <p>
        Keep these somewhere safe: each signs you in once instead of a code, if you lose your phone.
        They are shown only now.
      </p>
      <ul className="recovery__codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The one field a code is typed in: six digits, or (at sign-in) a recovery code. */
export function CodeField({
  value,
  onChange,
  errors = [],
  autoFocus = false,
}: {
  value: string;
  onChange: (value: string) => void;
  errors?: FieldError[];
  autoFocus?: boolean;
}) {
  return (
    <Field label="Code" errors={errors}>
      <input
        className="input"
        name="code"
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        required
        maxLength={64}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
