import { createServer } from 'node:net';

/** A port the OS just handed out and released; the services bind it right after. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Free ports for the database, the four services and the simulators' base, as the stack
 * configuration's variables: what every stack started on a busy machine (tests, faults) binds.
 */
export async function freeStackPorts() {
  const [pg, rest, gateway, lens, settlement, providers] = await Promise.all(
    Array.from({ length: 6 }, freePort),
  );
  return {
    EMBEDDED_PG_PORT: String(pg),
    REST_PORT: String(rest),
    GATEWAY_PORT: String(gateway),
    LENS_PORT: String(lens),
    SETTLEMENT_PORT: String(settlement),
    PROVIDERS_BASE_PORT: String(providers),
  };
}
