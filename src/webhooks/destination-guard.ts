import { BlockList, isIP } from 'node:net';

/**
 * Server-side request forgery guard for webhook destinations: loopback, private, link-local,
 * carrier-grade NAT, multicast and reserved addresses are refused unless WEBHOOK_ALLOW_PRIVATE,
 * and so is every IPv6 address that carries such an IPv4 address inside it (see embeddedIPv4).
 */
const BLOCKED_V4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED_V4.addSubnet(net, bits, 'ipv4');
}
const BLOCKED_V6 = new BlockList();
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  // RFC 8215 local-use NAT64: the operator decides where it translates to, and where the IPv4
  // address sits inside it depends on the prefix length; nothing in it is judged safe.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED_V6.addSubnet(net, bits, 'ipv6');
}

/** An IPv6 address as its eight 16-bit groups; null when `address` is not IPv6. */
export function ipv6Groups(address: string): number[] | null {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return null;
  let text = bare.toLowerCase();
  // A dotted-quad tail (::ffff:127.0.0.1, ::127.0.0.1) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const parse = (part: string): number[] =>
    part === '' ? [] : part.split(':').map((group) => parseInt(group, 16));
  const front = parse(head);
  if (tail === null) return front;
  const back = parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function dottedQuad(high: number, low: number): string {
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/**
 * The IPv4 addresses an IPv6 address stands for, so that they are judged as IPv4:
 * IPv4-mapped `::ffff:0:0/96`, IPv4-translated `::ffff:0:0:0/96` (RFC 2765), IPv4-compatible
 * `::/96` (deprecated, still routed by some stacks), NAT64 `64:ff9b::/96` (RFC 6052),
 * 6to4 `2002::/16` (RFC 3056: bits 16-47) and Teredo `2001::/32` (RFC 4380: the server at
 * bits 32-63, the client as the last 32 bits XOR 0xffffffff). Empty for any other address.
 */
export function embeddedIPv4(groups: number[]): string[] {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const zeroTo = (n: number) => groups.slice(0, n).every((g) => g === 0);
  if (zeroTo(5) && g5 === 0xffff) return [dottedQuad(g6, g7)];
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return [dottedQuad(g6, g7)];
  if (zeroTo(6)) return [dottedQuad(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return [dottedQuad(g6, g7)];
  if (g0 === 0x2002) return [dottedQuad(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [dottedQuad(g2, g3), dottedQuad(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/**
 * True for an address a webhook must not reach: a blocked IPv4 or IPv6 range, or an IPv6
 * address whose embedded IPv4 address is in one. Anything that is not an address is refused.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return BLOCKED_V4.check(address, 'ipv4');
  const groups = family === 6 ? ipv6Groups(address) : null;
  if (!groups || groups.length !== 8) return true;
  const canonical = groups.map((g) => g.toString(16)).join(':');
  if (BLOCKED_V6.check(canonical, 'ipv6')) return true;
  return embeddedIPv4(groups).some((v4) => BLOCKED_V4.check(v4, 'ipv4'));
}

/** A URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Thrown when a destination is (or resolves to) an address webhooks may not reach. */
export class PrivateDestinationError extends Error {
  constructor(readonly address: string) {
    super(`destination address ${address} is private or loopback (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}
