import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { Caller } from '../../../core/access/caller';
import type { Logger } from 'pino';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * What the request context puts on `ctx.state`. The logger carrying the request id is made on
 * first use: building a pino child costs on every request, and at `warn` (or with no error to
 * report) most requests never log a line.
 */
class RequestState {
  #log: Logger | undefined;

  constructor(
    private readonly root: Logger,
    readonly requestId: string,
  ) {}

  get log(): Logger {
    return (this.#log ??= this.root.child({ request_id: this.requestId }));
  }
}

/**
 * Assigns the request id (an incoming valid `X-Request-Id`, else a UUID), echoes it, binds a
 * child logger carrying it, and writes one access-log line per request. The line holds method,
 * path (never the query string, which may carry tokens), status, duration, request id, client IP
 * and, once authenticated, the user id (or, for an organization API key, the key's id), so an
 * incident can be traced to an address and an account; cookies, bodies and credentials are never logged.
 */
export function requestContext(logger: Logger, clientIp: (ctx: Context) => string): Middleware {
  return (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('X-Request-Id');
    const requestId = VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state = new RequestState(logger, requestId);
    ctx.set('X-Request-Id', requestId);
    // Below `info` the access line would be dropped anyway: no need to wait for the answer.
    if (!logger.isLevelEnabled('info')) return next();
    return logged(ctx, next, started, logger, requestId, clientIp);
  };
}

async function logged(
  ctx: Context,
  next: () => Promise<unknown>,
  started: number,
  logger: Logger,
  requestId: string,
  clientIp: (ctx: Context) => string,
): Promise<void> {
  try {
    await next();
  } finally {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const caller = ctx.state.caller as Caller | undefined;
    const line = { request_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms, ip: clientIp(ctx), user_id: caller?.kind === 'user' ? caller.userId : null };
    // The root logger with the request id as a field: the line the child logger would write,
    // without building a child (its bindings serialized) for every request.
    logger.info(caller?.kind === 'api_key' ? { ...line, api_key_id: caller.apiKeyId } : line, 'request');
  }
}
