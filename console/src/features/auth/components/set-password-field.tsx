import type { FieldError } from '../../../api/problem';
import { Field } from '../../../components/field';

/** "New password", under the same rule as everywhere: 8 to 256 characters. */
export function NewPasswordField({
  value,
  onChange,
  errors,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  errors: FieldError[];
  autoFocus?: boolean;
}) {
  return (
    <Field label="New password" hint="At least 8 characters." errors={errors}>
      <input
        className="input"
        type="password"
        name="new-password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        required
        minLength={8}
        maxLength={256}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </Field>
  );
}
