import { SearchCache } from './search-cache';

describe('SearchCache', () => {
  it('answers a key within its generation only', () => {
    const cache = new SearchCache<string>();
    cache.set(1, 'q', 'answer');
    expect(cache.get(1, 'q')).toBe('answer');
    expect(cache.get(1, 'other')).toBeUndefined();
    expect(cache.get(2, 'q')).toBeUndefined();
  });

  it('empties itself when a new generation is stored', () => {
    const cache = new SearchCache<string>();
    cache.set(1, 'a', 'A1');
    cache.set(1, 'b', 'B1');
    cache.set(2, 'a', 'A2');
    expect(cache.size).toBe(1);
    expect(cache.get(2, 'a')).toBe('A2');
    expect(cache.get(2, 'b')).toBeUndefined();
  });

  it('drops the least recently used beyond its capacity', () => {
    const cache = new SearchCache<string>(2);
    cache.set(1, 'a', 'A');
    cache.set(1, 'b', 'B');
    expect(cache.get(1, 'a')).toBe('A');
    cache.set(1, 'c', 'C');
    expect(cache.get(1, 'b')).toBeUndefined();
    expect(cache.get(1, 'a')).toBe('A');
    expect(cache.get(1, 'c')).toBe('C');
  });
});
