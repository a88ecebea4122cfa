import { describe, expect, it } from 'vitest';
import type { Context } from 'koa';
import { canonicalIp, clientIpResolver, rateLimitKey } from './client-ip';

const ctx = (forwarded: string | undefined, socket = '10.0.0.5') =>
  ({ get: (name: string) => (name === 'X-Forwarded-For' ? (forwarded ?? '') : ''), req: { socket: { remoteAddress: socket } } }) as unknown as Context;

describe('client IP from X-Forwarded-For', () => {
  it('takes the entry our single proxy appended (1 hop: the rightmost)', () => {
    expect(clientIpResolver(1)(ctx('198.51.100.7, 203.0.113.1'))).toBe('203.0.113.1');
  });

  it('with 2 hops, ignores what the client wrote and the inner proxy', () => {
    expect(clientIpResolver(2)(ctx('6.6.6.6, 198.51.100.7, 10.1.1.1'))).toBe('198.51.100.7');
  });

  it('cannot be spoofed by prepending entries', () => {
    const resolve = clientIpResolver(1);
    expect(resolve(ctx('1.1.1.1, 2.2.2.2, 203.0.113.1'))).toBe('203.0.113.1');
  });

  it('falls back to the socket without the header, with 0 hops, or with garbage', () => {
    expect(clientIpResolver(1)(ctx(undefined))).toBe('10.0.0.5');
    expect(clientIpResolver(0)(ctx('203.0.113.1'))).toBe('10.0.0.5');
    expect(clientIpResolver(1)(ctx('not-an-ip'))).toBe('10.0.0.5');
  });

  it("reads the socket's address once per connection, and each connection's own", () => {
    const resolve = clientIpResolver(0);
    let reads = 0;
    const socket = { get remoteAddress() { reads += 1; return '::ffff:198.51.100.9'; } };
    const onSocket = { get: () => '', req: { socket } } as unknown as Context;
    expect([resolve(onSocket), resolve(onSocket), resolve(onSocket)]).toEqual(['198.51.100.9', '198.51.100.9', '198.51.100.9']);
    expect(reads).toBe(1);
    expect(resolve(ctx(undefined, '2001:DB8::1'))).toBe('2001:db8::1');
    const closed = { get: () => '', req: { socket: { remoteAddress: undefined } } } as unknown as Context;
    expect(resolve(closed)).toBe('unknown');
  });

  it('uses the leftmost entry when there are fewer entries than hops', () => {
    expect(clientIpResolver(3)(ctx('198.51.100.7'))).toBe('198.51.100.7');
  });
});

describe('canonical client addresses', () => {
  it('gives every spelling of one IPv6 address the same key', () => {
    const spellings = ['2001:db8::1', '2001:0db8:0000:0000:0000:0000:0000:0001', '2001:DB8::1', '2001:db8:0:0::0:1', '2001:db8::1%eth0'];
    expect(new Set(spellings.map((ip) => canonicalIp(ip)))).toEqual(new Set(['2001:db8::1']));
  });

  it('turns IPv4-mapped IPv6 into the IPv4 address it carries', () => {
    expect(canonicalIp('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(canonicalIp('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(clientIpResolver(0)(ctx(undefined, '::ffff:198.51.100.7'))).toBe('198.51.100.7');
    expect(clientIpResolver(1)(ctx('::ffff:198.51.100.7'))).toBe('198.51.100.7');
  });

  it('drops zone ids and refuses what is not an address', () => {
    expect(canonicalIp('fe80::1%eth0')).toBe('fe80::1');
    expect(canonicalIp('not-an-ip')).toBeNull();
    expect(canonicalIp('1.2.3')).toBeNull();
  });

  it('counts IPv6 clients per /64 and IPv4 clients per address', () => {
    expect(rateLimitKey(canonicalIp('2001:db8:1:2:aaaa::1')!)).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey(canonicalIp('2001:DB8:1:2:ffff:ffff:ffff:ffff')!)).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey(canonicalIp('2001:db8:1:3::1')!)).toBe('2001:db8:1:3::/64');
    expect(rateLimitKey(canonicalIp('::1')!)).toBe('0:0:0:0::/64');
    expect(rateLimitKey('198.51.100.7')).toBe('198.51.100.7');
  });
});
