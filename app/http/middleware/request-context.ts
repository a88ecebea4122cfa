import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Caller } from '../../../core/access/caller';
import type { Logger } from 'pino';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * What the request context puts on `ctx.state`. The logger carrying the request id is made on
 * first use: building a pino child costs on every request, and at `warn` (or with no error to
 * report) most requests never log a line.
 */
export class RequestState {
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
 * Assigns the request id (an incoming valid `X-Request-Id`, else a UUID), echoes it, and puts
 * the request's state (its id, a logger carrying it) on `ctx.state`. Returns the id.
 */
export function startRequest(ctx: Context, logger: Logger): string {
  const incoming = ctx.req.headers['x-request-id'];
  const requestId = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  ctx.state = new RequestState(logger, requestId);
  ctx.res.setHeader('X-Request-Id', requestId);
  return requestId;
}

/**
 * The one access-log line per request, at `info`: method, path (never the query string, which
 * may carry tokens), status, duration, request id, client IP and, once authenticated, the user
 * id (or, for an organization API key, the key's id), so an incident can be traced to an address
 * and an account; cookies, bodies and credentials are never logged. Written through the root
 * logger with the request id as a field: the line the child logger would write, without building
 * a child (its bindings serialized) for every request.
 */
export function writeAccessLine(ctx: Context, logger: Logger, requestId: string, started: number, clientIp: (ctx: Context) => string): void {
  const ms = Math.round((performance.now() - started) * 10) / 10;
  const caller = ctx.state.caller as Caller | undefined;
  const line = { request_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms, ip: clientIp(ctx), user_id: caller?.kind === 'user' ? caller.userId : null };
  logger.info(caller?.kind === 'api_key' ? { ...line, api_key_id: caller.apiKeyId } : line, 'request');
}
