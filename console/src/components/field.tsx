import { useId, type ReactElement, type ReactNode } from 'react';
import type { FieldError } from '../api/problem';
import { cloneElement } from 'react';

interface FieldProps {
  label: ReactNode;
  /** The input element; it receives id, aria-invalid and aria-describedby. */
  children: ReactElement<Record<string, unknown>>;
  hint?: ReactNode;
  errors?: FieldError[];
  className?: string;
}

/** A labelled control with its hint and its field problems (from a 422) right below it. */
export function Field({ label, children, hint, errors = [], className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, errors.length ? errorId : null].filter(Boolean);
  return (
    <div className={`field ${className ?? ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': errors.length > 0 || undefined,
        'aria-describedby': describedBy.length ? describedBy.join(' ') : undefined,
      })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id?: string; errors: FieldError[] }) {
  if (!errors.length) return null;
  return (
    <ul className="field__errors" id={id}>
      {errors.map((e) => (
        <li key={`${e.field}:${e.code}`}>{e.message}</li>
      ))}
    </ul>
  );
}
