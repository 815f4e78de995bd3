import { canonicalUsername } from './username';

/** The longest key `users.username_key` holds. */
export const USERNAME_KEY_LENGTH = 128;

export interface ExistingUser {
  id: string;
  username: string;
  createdAt: Date;
}

/**
 * Canonical keys for accounts that existed before usernames were canonicalised (the
 * UsernameKey migration). Accounts whose usernames share a canonical form keep one key between
 * them, decided the same way every time: the account whose stored username already is the
 * canonical form (the one people sign in with), else the earliest created, else the smallest
 * id. Every other account of the clash, and one whose canonical form is longer than the
 * column, gets `#<id>`: unique, and unreachable by sign-in (a name with `#` matches no account).
 * Such an account keeps its sessions, tokens and pages; an administrator gives its person a
 * new account to sign in with.
 */
export function assignUsernameKeys(users: ExistingUser[]): Map<string, string> {
  const byKey = new Map<string, ExistingUser[]>();
  for (const user of users) {
    const key = canonicalUsername(user.username);
    byKey.set(key, [...(byKey.get(key) ?? []), user]);
  }
  const keys = new Map<string, string>();
  for (const [key, clash] of byKey) {
    const [keeper, ...others] = [...clash].sort(
      (a, b) =>
        Number(b.username === key) - Number(a.username === key) ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const fits = key.length > 0 && key.length <= USERNAME_KEY_LENGTH;
    keys.set(keeper.id, fits ? key : unreachableKey(keeper.id));
    for (const other of others) keys.set(other.id, unreachableKey(other.id));
  }
  return keys;
}

function unreachableKey(id: string): string {
  return `#${id}`;
}
