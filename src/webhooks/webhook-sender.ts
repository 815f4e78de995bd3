import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction, Socket } from 'node:net';
import { hostOf, isPrivateAddress, PrivateDestinationError } from './destination-guard';

export interface SendResult {
  /** The receiver's status code; null when no answer came. */
  statusCode: number | null;
  /** Why the attempt failed (network error, timeout, refused destination), or null. */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

/** How much of a receiver's answer is read before it is dropped (it is never stored). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * A DNS lookup that hands the socket only public addresses: the address checked is the address
 * connected, so a name that resolves to a public address when the webhook is saved and to
 * 127.0.0.1 at delivery (DNS rebinding) is still refused.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const usable = allowPrivate
        ? addresses
        : addresses.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        return callback(new PrivateDestinationError(addresses[0]?.address ?? hostname), '', 0);
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      } else {
        callback(null, usable[0].address, usable[0].family);
      }
    });
  };
}

/** POSTs one signed delivery; never throws (the outcome is the result). */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<SendResult> {
  const started = Date.now();
  const finish = (statusCode: number | null, error: string | null): SendResult => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      const literal = hostOf(target);
      if (isIP(literal) && !options.allowPrivate && isPrivateAddress(literal))
        throw new PrivateDestinationError(literal);
    } catch (error) {
      return resolve(finish(null, messageOf(error)));
    }
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'kb-webhooks/1',
      },
      lookup: guardedLookup(options.allowPrivate),
      timeout: options.timeoutMs,
    });
    request.on('socket', (socket: Socket) => {
      // Belt and braces: whatever resolved the name, judge the peer actually connected.
      socket.once('connect', () => {
        const peer = socket.remoteAddress;
        if (!options.allowPrivate && peer && isPrivateAddress(peer))
          request.destroy(new PrivateDestinationError(peer));
      });
    });
    request.on('timeout', () =>
      request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
    );
    request.on('error', (error) => resolve(finish(null, messageOf(error))));
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      const done = () => resolve(finish(response.statusCode ?? null, null));
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.end(body);
  });
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
