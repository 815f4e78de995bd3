import { isPrivateAddress } from './destination-guard';
import { newWebhookSecret, secretBytes, signWebhook } from './webhook-signature';
import { Webhook } from 'standardwebhooks';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a00:1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows %s',
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe('webhook signatures', () => {
  it('generates whsec_ secrets of 32 bytes and signs as the standardwebhooks verifier expects', () => {
    const secret = newWebhookSecret();
    expect(secretBytes(secret)).toHaveLength(32);
    const body = '{"type":"page.created","timestamp":"2026-01-01T00:00:00.000Z","data":{}}';
    const headers = signWebhook(secret, 'msg_1', new Date(), body);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('refuses secrets that are not whsec_ + base64 of 24 to 64 bytes', () => {
    for (const secret of [
      'abc',
      'whsec_',
      'whsec_!!!!',
      `whsec_${Buffer.alloc(16).toString('base64')}`,
    ]) {
      expect(secretBytes(secret)).toBeNull();
    }
    expect(secretBytes(`whsec_${Buffer.alloc(24).toString('base64')}`)).toHaveLength(24);
  });
});
