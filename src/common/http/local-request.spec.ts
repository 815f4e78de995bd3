import type { Request } from 'express';
import { isLocalRequest } from './local-request';

function request(remoteAddress: string, headers: Record<string, string> = {}): Request {
  return { socket: { remoteAddress }, headers } as unknown as Request;
}

describe('isLocalRequest', () => {
  it('accepts loopback peers without forwarding headers', () => {
    expect(isLocalRequest(request('127.0.0.1'))).toBe(true);
    expect(isLocalRequest(request('::1'))).toBe(true);
    expect(isLocalRequest(request('::ffff:127.0.0.1'))).toBe(true);
  });

  it('refuses other peers and anything a proxy forwarded', () => {
    expect(isLocalRequest(request('10.0.0.7'))).toBe(false);
    expect(isLocalRequest(request('::ffff:192.168.1.2'))).toBe(false);
    expect(isLocalRequest(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }))).toBe(false);
    expect(isLocalRequest(request('::1', { forwarded: 'for=203.0.113.9' }))).toBe(false);
  });
});
