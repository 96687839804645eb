import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Stacks boot while the first tier tests. Vitest runs every project's global setup, one after
 * another, before the first tier starts: a setup that awaited its stack held the unit and service
 * tiers back for the length of every boot (issue 22). Here a global setup starts its boot and
 * returns at once; a loopback server answers what the boot gave (JSON), and a later tier's setup
 * file waits for that answer (`awaitBoot`) before its first test file runs.
 */
export interface Boot<T> {
  value: T;
  stop(): Promise<void>;
}

/** Every boot of this run, shared by the global setups of all projects (one process). */
const BOOTS = Symbol.for('campaign-platform.test.boots');
const boots = (): Promise<unknown>[] =>
  ((globalThis as Record<symbol, Promise<unknown>[]>)[BOOTS] ??= []);

/** How long the server holds a request before answering "still booting" (the client asks again). */
const HOLD_MS = 20_000;

/**
 * `holdsLaterTiers: false` is for a boot that runs at the lowest CPU priority and that only its
 * own test file waits for (the private clone's `npm start`): it takes the CPU the tiers leave
 * idle, so the later tiers need not wait for it, and its own answer still waits for the others.
 */
export async function bootInBackground<T>(
  boot: () => Promise<Boot<T>>,
  { holdsLaterTiers = true }: { holdsLaterTiers?: boolean } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const booting = boot();
  const outcome = booting.then(
    (booted) => ({ ok: true as const, value: booted.value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  if (holdsLaterTiers) boots().push(outcome);
  const server = createServer((_request, response) => {
    // The answer waits for every boot of the run, not only this one: no test of a later tier
    // runs while a stack is still starting beside it (budgets of a second would feel the load).
    const over = Promise.all(boots()).then(() => outcome);
    const hold = new Promise<null>((resolve) => setTimeout(resolve, HOLD_MS, null).unref());
    void Promise.race([over, hold]).then((result) => {
      const [status, body] =
        result === null
          ? [202, { booting: true }]
          : result.ok
            ? [200, result.value]
            : [
                500,
                {
                  error: result.error instanceof Error ? result.error.stack : String(result.error),
                },
              ];
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const booted = await booting.catch(() => null);
      await booted?.stop();
    },
  };
}

/** Longest a test file waits for a stack (a boot that hangs fails the tier, not the machine). */
const BOOT_DEADLINE_MS = 600_000;

/** What the boot at `url` gave, once every boot of the run is over; its error if it failed. */
export async function awaitBoot<T>(url: string): Promise<T> {
  const deadline = Date.now() + BOOT_DEADLINE_MS;
  while (Date.now() < deadline) {
    const response = await fetch(url);
    if (response.status === 202) {
      await response.body?.cancel();
      continue; // the server held the request HOLD_MS: no wait of our own
    }
    const body = (await response.json()) as T | { error: string };
    if (response.status !== 200)
      throw new Error(`the stack did not start: ${(body as { error: string }).error}`);
    return body as T;
  }
  throw new Error(`the stack did not start in ${BOOT_DEADLINE_MS / 1000} s`);
}
