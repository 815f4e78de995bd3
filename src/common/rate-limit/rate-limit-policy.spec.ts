import { loadConfig } from '../config/app-config';
import {
  classOf,
  parseRateLimit,
  policyHeader,
  rateLimitHeader,
  windowAt,
} from './rate-limit-policy';

describe('rate-limit policy', () => {
  it('parses quotas per window, 0 as off, and refuses anything else', () => {
    expect(parseRateLimit('1200/60s')).toEqual({ quota: 1200, windowSeconds: 60 });
    expect(parseRateLimit('60/3600')).toEqual({ quota: 60, windowSeconds: 3600 });
    expect(parseRateLimit('0')).toBeNull();
    for (const bad of ['', 'x', '10', '10/0s', '0/60s', '-1/60s', '10/60m']) {
      expect(parseRateLimit(bad)).toBeUndefined();
    }
  });

  it("defaults to the issue's limits and names a bad variable", () => {
    expect(loadConfig({}).rateLimit.limits).toEqual({
      read: { quota: 1200, windowSeconds: 60 },
      write: { quota: 600, windowSeconds: 60 },
      search: { quota: 300, windowSeconds: 60 },
      import: { quota: 60, windowSeconds: 3600 },
    });
    expect(loadConfig({ RATE_LIMIT_WRITE: '0' }).rateLimit.limits.write).toBeNull();
    expect(() => loadConfig({ RATE_LIMIT_SEARCH: 'lots' })).toThrow(/RATE_LIMIT_SEARCH/);
  });

  it('classes requests: search, import, reads and writes', () => {
    expect(classOf('GET', '/api/search?q=x')).toBe('search');
    expect(classOf('POST', '/api/import')).toBe('import');
    expect(classOf('GET', '/api/pages/a')).toBe('read');
    expect(classOf('PUT', '/api/pages/a')).toBe('write');
    expect(classOf('DELETE', '/api/import')).toBe('write');
  });

  it('writes the structured-field headers of the IETF draft', () => {
    expect(policyHeader('search', { quota: 300, windowSeconds: 60 })).toBe('"search";q=300;w=60');
    expect(rateLimitHeader('search', 299, 59.2)).toBe('"search";r=299;t=60');
    expect(rateLimitHeader('read', -3, 0)).toBe('"read";r=0;t=0');
  });

  it('puts moments into fixed windows', () => {
    expect(windowAt(125_000, 60)).toEqual({ index: 2, endsAt: 180_000 });
  });
});
