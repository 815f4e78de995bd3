import type { Request } from 'express';
import { isSameOriginRequest, isUnsafeMethod } from './origin';

function req(headers: Record<string, string>, protocol = 'http', host = 'kb.test'): Request {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { protocol, host, get: (name: string) => lower[name.toLowerCase()] } as unknown as Request;
}

describe('isSameOriginRequest', () => {
  it.each([
    [{ Origin: 'http://kb.test' }, true],
    [{ Origin: 'https://kb.test' }, false],
    [{ Origin: 'http://kb.test:8080' }, false],
    [{ Origin: 'https://evil.example' }, false],
    [{ Origin: 'null' }, false],
    [{ Origin: 'https://admin.example' }, true],
    [{ 'Sec-Fetch-Site': 'same-origin' }, true],
    [{ 'Sec-Fetch-Site': 'none' }, true],
    [{ 'Sec-Fetch-Site': 'same-site' }, false],
    [{ 'Sec-Fetch-Site': 'cross-site' }, false],
    [{ Origin: 'http://kb.test', 'Sec-Fetch-Site': 'same-origin' }, true],
    [{}, true],
  ])('%j → %s', (headers, expected) => {
    expect(isSameOriginRequest(req(headers), ['https://admin.example'])).toBe(expected);
  });

  it('compares against the protocol and host the request arrived with', () => {
    expect(
      isSameOriginRequest(
        req({ Origin: 'https://wiki.example:8443' }, 'https', 'wiki.example:8443'),
        [],
      ),
    ).toBe(true);
  });
});

describe('isUnsafeMethod', () => {
  it('treats POST, PUT, PATCH and DELETE as unsafe', () => {
    expect(
      ['GET', 'HEAD', 'OPTIONS', 'post', 'PUT', 'PATCH', 'DELETE'].map(isUnsafeMethod),
    ).toEqual([false, false, false, true, true, true, true]);
  });
});
