import type { Request } from 'express';

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * A request from this machine itself (a local Prometheus agent, an operator's curl): the peer
 * is a loopback address and no proxy forwarded it. A reverse proxy on the same host connects
 * from loopback too, but says so in X-Forwarded-For / Forwarded, and then the request is
 * treated as a remote one.
 */
export function isLocalRequest(request: Request): boolean {
  if (request.headers['x-forwarded-for'] !== undefined) return false;
  if (request.headers.forwarded !== undefined) return false;
  return isLoopback(request.socket.remoteAddress);
}
