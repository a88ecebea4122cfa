import type { Context } from 'koa';
import type { RequestOrigin } from '../../core/access/caller';
import { sessionOrigin } from '../../core/accounts/session-issuer';

/**
 * A request's origin (client address after the trusted proxies, User-Agent cut to 255
 * characters), worked out on first read: most requests record nothing, and the address is not
 * free to resolve.
 */
export class EdgeOrigin implements RequestOrigin {
  private resolved: RequestOrigin | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly clientIp: (ctx: Context) => string,
  ) {}

  get ip(): string | null {
    return this.origin().ip;
  }

  get userAgent(): string | null {
    return this.origin().userAgent;
  }

  private origin(): RequestOrigin {
    this.resolved ??= sessionOrigin(this.ctx.get('User-Agent'), this.clientIp(this.ctx));
    return this.resolved;
  }
}
