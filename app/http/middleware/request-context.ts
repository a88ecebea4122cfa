import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import type { Caller } from '../../../core/access/caller';
import type { Logger } from 'pino';
import { infoLineWriter } from '../../logging';

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
 * `value` as a JSON string, as pino writes one: quoted as it is unless it holds a quote, a
 * backslash, a control character or half of a surrogate pair, then by `JSON.stringify`.
 */
function jsonString(value: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(value);
  }
  return `"${value}"`;
}

/**
 * The one access-log line per request, at `info`: method, path (never the query string, which
 * may carry tokens), status, duration, request id, client IP and, once authenticated, the user
 * id (or, for an organization API key, the key's id), so an incident can be traced to an address
 * and an account; cookies, bodies and credentials are never logged. The line is the one
 * `logger.info({ request_id, method, path, status, ms, ip, user_id[, api_key_id] }, 'request')`
 * would write (app/logging.test.ts holds the two side by side), its fields written here: pino's
 * generic path costs about as much again as the rest of the line (`infoLineWriter`). Only the
 * path is escaped: the request id is one `VALID_REQUEST_ID` accepts or a UUID, the method one
 * Node's HTTP parser knows, the IP canonical (`canonicalIp`: digits, hex, dots, colons) or
 * `unknown`, the ids and numbers numbers.
 *
 * A logger whose lines cannot be prebuilt (pino-pretty in a development terminal) gets the same
 * fields through `logger.info`.
 *
 * Made once per logger; returns what writes the line of a request that `startRequest` began at
 * `started` (`performance.now()`).
 */
export function accessLog(logger: Logger, clientIp: (ctx: Context) => string): (ctx: Context, requestId: string, started: number) => void {
  const write = infoLineWriter(logger, 'request');
  return (ctx, requestId, started) => {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const caller = ctx.state.caller as Caller | undefined;
    const apiKeyId = caller?.kind === 'api_key' ? caller.apiKeyId : undefined;
    const userId = caller?.kind === 'user' ? caller.userId : null;
    if (write === undefined) {
      const fields = { request_id: requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms, ip: clientIp(ctx), user_id: userId };
      logger.info(apiKeyId === undefined ? fields : { ...fields, api_key_id: apiKeyId }, 'request');
      return;
    }
    const who = apiKeyId === undefined ? `${userId}` : `null,"api_key_id":${apiKeyId}`;
    write(`,"request_id":"${requestId}","method":"${ctx.method}","path":${jsonString(ctx.path)},"status":${ctx.status},"ms":${ms},"ip":"${clientIp(ctx)}","user_id":${who}`);
  };
}
