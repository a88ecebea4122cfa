import { describe, expect, it } from 'vitest';
import type { Context } from 'koa';
import { clientIpResolver } from './client-ip';

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

  it('uses the leftmost entry when there are fewer entries than hops', () => {
    expect(clientIpResolver(3)(ctx('198.51.100.7'))).toBe('198.51.100.7');
  });
});
