import { isIPv4, isIPv6, type Socket } from 'node:net';
import type { Context } from 'koa';

/**
 * One spelling per address, so a client cannot get a fresh rate-limit budget by writing its
 * address another way: IPv6 lower-cased and compressed (RFC 5952, via the WHATWG URL parser),
 * zone ids dropped, and IPv4-mapped IPv6 (`::ffff:198.51.100.7`) turned into the IPv4 address it
 * carries. Null for anything that is not an IP address.
 */
export function canonicalIp(raw: string): string | null {
  const address = raw.trim().replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return null;
  const groups = ipv6Groups(new URL(`http://[${address}]`).hostname.slice(1, -1));
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return new URL(`http://[${address}]`).hostname.slice(1, -1);
}

/**
 * The rate-limit key of a canonical address. An IPv6 subscriber usually holds a whole /64 (often
 * more) and picks addresses in it at will, so IPv6 clients are counted per /64; IPv4 per address.
 */
export function rateLimitKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const prefix = ipv6Groups(ip).slice(0, 4).map((group) => group.toString(16));
  return `${prefix.join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address already in compressed canonical form (no dotted quad). */
function ipv6Groups(compressed: string): number[] {
  const [head = '', tail] = compressed.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  if (tail === undefined) return parse(head);
  const left = parse(head);
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The client IP, canonical (see canonicalIp), for rate limiting and the access log. `trustedHops`
 * says which `X-Forwarded-For` entry, counted from the right, our own proxies wrote: 1 means "the
 * last entry is the client as seen by our load balancer". Entries further left are
 * client-controlled and never trusted. Without the header (or with 0 hops) the socket address is
 * used. With hops set but no proxy in front, the client writes that entry itself: see
 * docs/operations.md.
 */
export function clientIpResolver(trustedHops: number): (ctx: Context) => string {
  return (ctx) => {
    if (trustedHops === 0) return socketIp(ctx.req.socket);
    const header = ctx.get('X-Forwarded-For');
    if (!header) return socketIp(ctx.req.socket);
    const entries = header.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
    if (entries.length === 0) return socketIp(ctx.req.socket);
    return canonicalIp(entries[Math.max(0, entries.length - trustedHops)]!) ?? socketIp(ctx.req.socket);
  };
}

/**
 * The peer's canonical address, worked out once per connection: a keep-alive connection carries
 * many requests, and every one asks (the access log, the rate limits, the session's origin).
 */
const socketIps = new WeakMap<Socket, string>();
function socketIp(socket: Socket): string {
  const known = socketIps.get(socket);
  if (known !== undefined) return known;
  const raw = socket.remoteAddress;
  const ip = raw === undefined ? undefined : canonicalIp(raw);
  if (ip === undefined || ip === null) return 'unknown'; // not kept: a closed socket no longer knows its peer
  socketIps.set(socket, ip);
  return ip;
}
