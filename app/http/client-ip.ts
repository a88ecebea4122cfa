import { isIP } from 'node:net';
import type { Context } from 'koa';

/**
 * The client IP for rate limiting. `trustedHops` says which `X-Forwarded-For` entry, counted
 * from the right, our own proxies wrote: 1 means "the last entry is the client as seen by our
 * load balancer". Entries further left are client-controlled and never trusted. Without the
 * header (or with 0 hops) the socket address is used.
 */
export function clientIpResolver(trustedHops: number): (ctx: Context) => string {
  return (ctx) => {
    const socketIp = ctx.req.socket.remoteAddress ?? 'unknown';
    const header = ctx.get('X-Forwarded-For');
    if (trustedHops === 0 || !header) return socketIp;
    const entries = header.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
    if (entries.length === 0) return socketIp;
    const candidate = entries[Math.max(0, entries.length - trustedHops)]!;
    return isIP(candidate) ? candidate : socketIp;
  };
}
