import type { AuthUser } from '../common/auth/auth-user';
import { AuthCache } from './auth-cache';

const user = (id: string): AuthUser => ({
  id,
  username: id,
  displayName: id,
  role: 'reader',
  groups: [],
  via: 'session',
});

describe('AuthCache', () => {
  const cache = (seconds: number) => new AuthCache({ cacheSeconds: seconds });

  it('keeps an entry for AUTH_CACHE_SECONDS, never past the credential end', () => {
    const c = cache(5);
    c.set('a', user('u1'), 10_000, 0);
    expect(c.get('a', 4_999)).toEqual(user('u1'));
    expect(c.get('a', 5_000)).toBeUndefined();
    c.set('b', user('u1'), 2_000, 0);
    expect(c.get('b', 1_999)).toEqual(user('u1'));
    expect(c.get('b', 2_000)).toBeUndefined();
  });

  it('forgets one key or every entry of a user', () => {
    const c = cache(60);
    c.set('a', user('u1'), Number.MAX_SAFE_INTEGER);
    c.set('b', user('u1'), Number.MAX_SAFE_INTEGER);
    c.set('c', user('u2'), Number.MAX_SAFE_INTEGER);
    c.delete('c');
    expect(c.get('c')).toBeUndefined();
    c.invalidateUser('u1');
    expect([c.get('a'), c.get('b')]).toEqual([undefined, undefined]);
  });

  it('caches nothing when AUTH_CACHE_SECONDS is 0', () => {
    const c = cache(0);
    c.set('a', user('u1'), Number.MAX_SAFE_INTEGER);
    expect(c.get('a')).toBeUndefined();
  });

  it('empties itself when the credentials generation moves, and never keeps an outdated answer', () => {
    const c = cache(60);
    c.observe(7);
    c.set('a', user('u1'), Number.MAX_SAFE_INTEGER, 0, 7);
    c.observe(7);
    expect(c.get('a', 1)).toEqual(user('u1'));
    c.observe(8);
    expect(c.get('a', 1)).toBeUndefined();
    // Resolved while generation 7 was current, stored after 8 was seen: dropped.
    c.set('b', user('u2'), Number.MAX_SAFE_INTEGER, 0, 7);
    expect(c.get('b', 1)).toBeUndefined();
  });
});
