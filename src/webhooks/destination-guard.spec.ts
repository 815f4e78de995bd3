import { embeddedIPv4, ipv6Groups, isPrivateAddress } from './destination-guard';
import { newWebhookSecret, secretBytes, signWebhook } from './webhook-signature';
import { Webhook } from 'standardwebhooks';

/**
 * Issue 28 item 3: every IPv6 spelling of a private, loopback or link-local IPv4 address is
 * refused, whatever the form that carries it (mapped, compatible, translated, NAT64, 6to4,
 * Teredo), in any textual spelling (hexadecimal or dotted tail, zero-padded, upper case).
 */
const REFUSED_V6_SPELLINGS: [string, string][] = [
  ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped, hexadecimal'],
  ['::FFFF:7F00:0001', 'IPv4-mapped, upper case, zero-padded'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped, uncompressed'],
  ['0000:0000:0000:0000:0000:ffff:127.0.0.1', 'IPv4-mapped, padded with dotted tail'],
  ['::ffff:a00:1', 'IPv4-mapped 10.0.0.1'],
  ['::ffff:192.168.0.1', 'IPv4-mapped 192.168.0.1'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254 (cloud metadata)'],
  ['::ffff:ac10:1', 'IPv4-mapped 172.16.0.1'],
  ['::127.0.0.1', 'IPv4-compatible, dotted'],
  ['::7f00:1', 'IPv4-compatible, hexadecimal (how URL() writes [::127.0.0.1])'],
  ['0:0:0:0:0:0:7f00:1', 'IPv4-compatible, uncompressed'],
  ['::10.1.2.3', 'IPv4-compatible 10.1.2.3'],
  ['::c0a8:101', 'IPv4-compatible 192.168.1.1'],
  ['::169.254.169.254', 'IPv4-compatible metadata address'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated (RFC 2765), dotted'],
  ['::ffff:0:7f00:1', 'IPv4-translated, hexadecimal'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix, dotted'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, hexadecimal'],
  ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
  ['64:ff9b::c0a8:1', 'NAT64 of 192.168.0.1'],
  ['64:FF9B:0:0:0:0:A9FE:A9FE', 'NAT64 of the metadata address, upper case'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix'],
  ['64:ff9b:1::8.8.8.8', 'NAT64 local-use prefix, whatever it embeds'],
  ['64:ff9b:1:ffff::1', 'NAT64 local-use prefix, elsewhere in the /48'],
  ['2002:7f00:1::', '6to4 of 127.0.0.1'],
  ['2002:7f00:0001:0000:0000:0000:0000:0001', '6to4 of 127.0.0.1, uncompressed'],
  ['2002:a00:1::1', '6to4 of 10.0.0.1'],
  ['2002:c0a8:101::', '6to4 of 192.168.1.1'],
  ['2002:a9fe:a9fe::', '6to4 of 169.254.169.254'],
  ['2002:ac1f:ffff:1::5', '6to4 of 172.31.255.255'],
  ['2002:6440:1::', '6to4 of 100.64.0.1 (carrier-grade NAT)'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo, client 127.0.0.1'],
  ['2001::4136:e378:0:0:f5ff:fffe', 'Teredo, client 10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:3f57:fefe', 'Teredo, client 192.168.1.1'],
  ['2001:0:4136:e378::5601:5656', 'Teredo, client 169.254.169.169'],
  ['2001:0:7f00:1::3f57:fefe', 'Teredo, server 127.0.0.1'],
  ['::1', 'IPv6 loopback'],
  ['0:0:0:0:0:0:0:1', 'IPv6 loopback, uncompressed'],
  ['::', 'unspecified'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fe80::7f00:1', 'link-local'],
  ['fd00::127.0.0.1', 'unique local with a dotted tail'],
  ['fc00::1', 'unique local'],
  ['ff02::1', 'multicast'],
];

/** Public IPv4 behind the same forms stays reachable. */
const ALLOWED_V6_SPELLINGS: [string, string][] = [
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['::ffff:808:808', 'IPv4-mapped public, hexadecimal'],
  ['::8.8.8.8', 'IPv4-compatible public'],
  ['64:ff9b::8.8.8.8', 'NAT64 of a public address'],
  ['2002:808:808::1', '6to4 of 8.8.8.8'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'Teredo, client 8.8.8.8'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:82a::200e', 'public IPv6'],
];

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
    'not-an-address',
    '',
    '::ffff:zz',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(REFUSED_V6_SPELLINGS)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1'])('allows %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each(ALLOWED_V6_SPELLINGS)('allows %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('has a table of at least 40 refused IPv6 spellings', () => {
    expect(REFUSED_V6_SPELLINGS.length).toBeGreaterThanOrEqual(40);
  });

  it('reads the embedded IPv4 of each form', () => {
    const v4 = (address: string) => embeddedIPv4(ipv6Groups(address)!);
    expect(v4('::ffff:7f00:1')).toEqual(['127.0.0.1']);
    expect(v4('::7f00:1')).toEqual(['127.0.0.1']);
    expect(v4('64:ff9b::c0a8:101')).toEqual(['192.168.1.1']);
    expect(v4('2002:7f00:1::')).toEqual(['127.0.0.1']);
    expect(v4('2001:0:4136:e378:8000:63bf:80ff:fffe')).toEqual(['65.54.227.120', '127.0.0.1']);
    expect(v4('2606:4700:4700::1111')).toEqual([]);
  });
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
