/**
 * What must never appear in a response: password or token hashes (by column or property name,
 * or an argon2 hash itself), stack traces, SQL.
 */
const FORBIDDEN: [string, RegExp][] = [
  ['password hash', /password_?hash/i],
  ['token hash', /token_?hash/i],
  ['argon2 hash', /\$argon2|argon2id/i],
  ['stack trace', /\n\s+at\s|\bat\s+\S+\s+\([^)]*:\d+:\d+\)|\.ts:\d+:\d+/],
  [
    'SQL',
    /\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM)\b|SQLITE_[A-Z]|\bER_[A-Z_]+|QueryFailedError/,
  ],
];

/** The first forbidden thing found in a response body, or null. */
export function findLeak(text: string): string | null {
  for (const [name, pattern] of FORBIDDEN) if (pattern.test(text)) return name;
  return null;
}

/** Asserts a response body carries no hash, stack trace or SQL (jest expect). */
export function expectNoLeak(label: string, text: string | undefined): void {
  expect({ label, leak: findLeak(text ?? '') }).toEqual({ label, leak: null });
}
