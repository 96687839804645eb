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
  /**
   * Makes the system slow to answer: each connection opened from now on reaches it only after
   * `ms` (an SMTP server's greeting, an HTTP answer), open ones are cut so clients reconnect;
   * 0 makes it prompt again, and the connections still waiting are let through at once (the
   * system "answers now": a test need not sit out the rest of a long delay it has observed).
   */
  slow(ms: number): void;
  close(): Promise<void>;
}

export async function startOutageProxy(target: {
  host: string;
  port: number;
}): Promise<OutageProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let delayMs = 0;
  /** Connections held back by a delay, each with the call that lets it through now. */
  const waiting = new Set<() => void>();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => undefined);
        const wire = () => {
          if (client.destroyed) return;
          const upstream = connect(target.port, target.host);
          sockets.add(upstream);
          upstream.on('close', () => sockets.delete(upstream));
          upstream.on('error', () => undefined);
          client.pipe(upstream).pipe(client);
          client.on('close', () => upstream.destroy());
          upstream.on('close', () => client.destroy());
        };
        if (delayMs > 0) {
          const letThrough = () => {
            waiting.delete(letThrough);
            clearTimeout(timer);
            wire();
          };
          const timer = setTimeout(letThrough, delayMs).unref();
          waiting.add(letThrough);
        } else wire();
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
    slow: (ms) => {
      delayMs = ms;
      if (ms > 0) for (const socket of sockets) socket.destroy();
      else for (const letThrough of [...waiting]) letThrough();
    },
    close: down,
  };
}
