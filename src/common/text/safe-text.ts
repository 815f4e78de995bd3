import { registerDecorator, ValidationOptions } from 'class-validator';
import type { FieldProblem } from '../problems/problem';

/**
 * Characters no name kb shows may hold: C0 controls (NUL included), DEL, C1 controls and the
 * bidirectional formatting characters (marks, embeddings, overrides, isolates) that make text
 * read differently from what it is (`evil\u202Egnp.exe`). A lone surrogate (`\uD800` without its
 * pair, valid in JSON but not in Unicode) is refused too: `\p{Cs}` in a `u` regex matches only
 * unpaired ones.
 */
const UNSAFE_CHARACTER =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\p{Cs}/u;

/** The field problem code of a name with such a character. */
export const UNSAFE_TEXT_CODE = 'invalid_characters';

/** Whether `value` holds a control, bidi formatting character or lone surrogate. */
export function hasUnsafeCharacters(value: string): boolean {
  return UNSAFE_CHARACTER.test(value);
}

export function unsafeTextMessage(field: string): string {
  return `${field} must not contain control characters, bidirectional formatting characters or unpaired surrogates.`;
}

/** The field problem for `value` at `field`, or null when the text is safe. */
export function unsafeTextProblem(field: string, value: string): FieldProblem | null {
  return hasUnsafeCharacters(value)
    ? { field, code: UNSAFE_TEXT_CODE, message: unsafeTextMessage(field) }
    : null;
}

/**
 * class-validator rule for DTO members holding names (display names, token names...): a string
 * with an unsafe character fails with code `invalid_characters` (a 422 field problem). Values of
 * other types pass: `@IsString()` reports them.
 */
export function IsSafeText(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'invalidCharacters',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: ({ property }) => unsafeTextMessage(property), ...options },
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !hasUnsafeCharacters(value),
      },
    });
  };
}
