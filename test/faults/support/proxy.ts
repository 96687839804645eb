import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of an outside system that the fault tests switch off and on: while down,
 * its port refuses connections and every open connection is cut, as when the system itself is
 * gone (the simulator behind it keeps what it received, so the tests can count deliveries).
 */
export interface OutageProxy {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startOutageProxy(target: {
  host: string;
  port: number;
}): Promise<OutageProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => undefined);
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        const address = next.address();
        port = typeof address === 'object' && address ? address.port : port;
        server = next;
        resolve();
      });
    });
  const down = async () => {
    const current = server;
    server = null;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await listen();
  return {
    port,
    down,
    up: async () => {
      if (!server) await listen();
    },
    close: down,
  };
}
