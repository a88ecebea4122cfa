import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server, for fault tests: `pass` forwards both ways; `blackhole`
 * models a server that accepts connections and never answers (a wedged server or pooler, a
 * half-open network path): connections still open, nothing moves on the existing ones and new
 * ones are accepted and never answered.
 */
export interface TcpProxy {
  port: number;
  mode: 'pass' | 'blackhole';
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs: Array<{ client: Socket; upstream: Socket }> = [];
  const proxy: TcpProxy = { port: 0, mode: 'pass', close: async () => undefined };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (proxy.mode === 'blackhole') {
      client.pause();
      return;
    }
    const upstream = connect(target);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (proxy.mode === 'pass') to.write(chunk);
        // blackhole: the bytes vanish and the peer waits
      });
    forward(client, upstream);
    forward(upstream, client);
    pairs.push({ client, upstream });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as { port: number }).port;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
