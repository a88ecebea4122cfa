type QueryFn = (...args: unknown[]) => unknown;

/** pg's `Client` class as its Pool sees it (`pool.Client`), reduced to what is used here. */
export interface PgClientClass {
  new (...args: never[]): { query: QueryFn; connection?: { stream?: { destroy(): void } }; _queryable?: boolean };
}

type Client = InstanceType<PgClientClass>;
type QueryCallback = (error: Error | null | undefined, result: unknown) => void;

/** One query in flight with a time limit: settled once, by pg's answer or by the limit. */
interface Pending {
  done: QueryCallback;
  timer: ReturnType<typeof setTimeout> | undefined;
  settled: boolean;
}

/** The error a query gets when the server has not answered within the limit (pg's own words for it). */
export const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * The class the pool builds its clients from, installed through MikroORM's `onPoolCreated`
 * before the first connection is opened. Its `query` does what pg's does, with two differences.
 *
 * 1. **pg is always called with a callback, and no `query_timeout` is handed to pg.** pg's
 *    promise form (`client.query(config, values)`, no callback) and its `query_timeout` each set
 *    the query's callback to a closure made inside `client.query`. Measured on Node 24 (20,000
 *    prepared queries one after another, nothing else in the process), either one makes every
 *    query's objects outlive the young generation: each scavenge promoted about 1.1 MB (1.6 MB
 *    with the time-out too) to the old generation, where only a full collection frees them (a
 *    forced one drops the next scavenge's promotion to nothing, then it builds up again: dead
 *    old objects keeping young ones alive). The same queries with a callback, the promise and the
 *    timer made here, promote nothing. In the server this was most of the garbage collector's
 *    time on the hottest route. The time limit is therefore kept here, with the same message.
 * 2. **A query that reaches the limit closes its connection.** pg keeps an unanswered query as
 *    the active one until the server answers, which a wedged server never does, and the pool
 *    would hand the stuck connection to the next request. Closing it makes the pool drop it and
 *    open a fresh one, so the API recovers as soon as the database does.
 *
 * A submittable (a cursor, a stream) gets pg's `query` untouched.
 */
export function pooledClientClass(Base: PgClientClass, queryTimeoutMs?: number): PgClientClass {
  const send = (client: Client, config: unknown, values: unknown, done: QueryCallback): void => {
    if (!queryTimeoutMs) {
      Base.prototype.query.call(client, copyOf(config), values, done);
      return;
    }
    const pending: Pending = { done, timer: undefined, settled: false };
    pending.timer = setTimeout(expire, queryTimeoutMs, client, pending);
    Base.prototype.query.call(client, copyOf(config), values, (error: Error | null | undefined, result: unknown) => {
      if (pending.settled) return;
      pending.settled = true;
      clearTimeout(pending.timer);
      done(error, result);
    });
  };

  return class PooledClient extends Base {
    override query = (...args: unknown[]): unknown => {
      const [config] = args;
      if (typeof config === 'object' && config !== null && typeof (config as { submit?: unknown }).submit === 'function') {
        return Base.prototype.query.apply(this, args);
      }
      let [, values, callback] = args;
      if (typeof values === 'function') [values, callback] = [undefined, values];
      if (typeof callback !== 'function') callback = (config as { callback?: unknown } | null)?.callback;
      if (typeof callback === 'function') {
        send(this, config, values, callback as QueryCallback);
        return undefined;
      }
      const answer = new Promise((resolve, reject) => {
        send(this, config, values, (error, result) => (error ? reject(error) : resolve(result)));
      });
      return answer.catch(withCallersStack);
    };
  };
}

function expire(client: Client, pending: Pending): void {
  if (pending.settled) return;
  pending.settled = true;
  // Not queryable from now on, before the caller gives the client back: pg-pool checks this flag
  // on release and drops the client, where the socket's own close would come a turn too late.
  client._queryable = false;
  client.connection?.stream?.destroy();
  pending.done(new Error(QUERY_TIMEOUT_MESSAGE), undefined);
}

/**
 * pg writes the values and the callback onto the config object it is given: a copy, so a
 * caller's object (a constant, say) never keeps a finished query's callback and result alive.
 */
function copyOf(config: unknown): unknown {
  return typeof config === 'object' && config !== null ? { ...config, callback: undefined } : config;
}

/**
 * An error from the server is made while parsing its message, so its stack leads to the socket.
 * Captured again in a promise reaction, it gets V8's async frames: the caller that awaited the
 * query (what pg's own promise form does too).
 */
function withCallersStack(error: unknown): never {
  if (error instanceof Error) Error.captureStackTrace(error);
  throw error;
}
