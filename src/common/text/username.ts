import { registerDecorator, ValidationOptions } from 'class-validator';

/**
 * Unicode format characters (`Cf`): zero-width space and joiners, the byte order mark, soft
 * hyphen, bidirectional marks, embeddings, overrides and isolates. They are invisible, so a
 * username that holds them looks like one without them: they are removed, never kept.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * Characters a username is refused for (a field problem, never silently dropped): controls
 * (C0, DEL, C1), private-use characters, line and paragraph separators and lone surrogates
 * (`\p{Cs}` in a `u` regex matches only unpaired ones).
 */
const REFUSED_CHARACTERS = /[\p{Cc}\p{Co}\p{Zl}\p{Zp}]|\p{Cs}/u;

/**
 * The one form of a username kb stores, looks up and throttles sign-ins by: compatibility
 * normalised (NFKC, so full-width `ｒｅａｄｅｒ２` and ligatures become `reader2`), without
 * format characters, case-folded (upper then lower case, so `ß`, `ſ` and final sigma fold as
 * case folding does) and trimmed. Accents are kept: `réader2` is another name than `reader2`
 * (an accent-insensitive collation equating them was the MariaDB lockout bypass). Idempotent,
 * so a stored canonical name canonicalises to itself. Refused characters are left in place
 * (see `hasRefusedUsernameCharacters`): a lookup by such a name finds nobody.
 */
export function canonicalUsername(value: string): string {
  const folded = value
    .normalize('NFKC')
    .replace(FORMAT_CHARACTERS, '')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC');
  return folded.replace(FORMAT_CHARACTERS, '').trim();
}

/** Whether `value` holds a character a username is refused for. */
export function hasRefusedUsernameCharacters(value: string): boolean {
  return REFUSED_CHARACTERS.test(value);
}

/**
 * class-validator rule for usernames (sign-in, new accounts): a string holding a control,
 * private-use character, line separator or lone surrogate fails with code
 * `invalid_characters` (a 422 field problem). Values of other types pass: `@IsString()`
 * reports them.
 */
export function IsUsernameText(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'invalidCharacters',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: ({ property }) =>
          `${property} must not contain control characters, private-use characters, line separators or unpaired surrogates.`,
        ...options,
      },
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || !hasRefusedUsernameCharacters(value),
      },
    });
  };
}
