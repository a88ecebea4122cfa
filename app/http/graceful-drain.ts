import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface Drain {
  /** Whether close() has begun. */
  readonly draining: boolean;
  /**
   * Stops accepting: no new connections, idle keep-alive connections closed, and every response
   * still to be sent (in flight now, or a request already on its way on an open connection) says
   * `Connection: close`, so no client sends another request on it. Resolves once every in-flight
   * request has finished, or after `graceMs`, when the remaining connections are cut.
   */
  close(graceMs: number): Promise<{ forced: boolean }>;
}

/**
 * Graceful shutdown for a Node HTTP server. `server.close()` alone stops new connections but lets
 * a busy keep-alive connection carry more requests for the whole grace period, and then cuts what
 * is in flight: writes committed but never acknowledged. Here, in-flight requests finish and are
 * the last ones on their connections.
 */
export function gracefulDrain(server: Server): Drain {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const lastOnConnection = (res: ServerResponse) => {
    // The response then carries `Connection: close` and Node ends the socket after it.
    if (!res.headersSent) res.shouldKeepAlive = false;
  };
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (draining) lastOnConnection(res);
  });
  return {
    get draining() {
      return draining;
    },
    close(graceMs) {
      draining = true;
      for (const res of inFlight) lastOnConnection(res);
      return new Promise((resolve) => {
        let forced = false;
        const force = setTimeout(() => {
          forced = true;
          server.closeAllConnections();
        }, graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve({ forced });
        });
        server.closeIdleConnections();
      });
    },
  };
}
