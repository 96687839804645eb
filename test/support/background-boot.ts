import { startControlServer } from './control-server.js';

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

type BootOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** How long the server holds a request before answering "still booting" (the client asks again). */
const HOLD_MS = 20_000;

/**
 * When a boot runs. By default it starts at once and every later tier waits for it (and for
 * every other such boot) before its first file.
 */
export interface BootTiming {
  /**
   * false: only its own test file waits for it. For a boot at the lowest CPU priority (the
   * private clone's `npm start`), which takes only the CPU the tiers leave idle.
   */
  holdsLaterTiers?: boolean;
  /**
   * true: the boot starts when its test file first asks for it, alone in the faults tier, as a
   * boot in the file's `beforeAll` would. For a stack whose boot costs the first tiers more than
   * it saves the faults tier: every boot at start is work in vitest's own process (migrations,
   * simulators), the process that also hands the first tiers' workers their modules.
   */
  whenAsked?: boolean;
}

export async function bootInBackground<T>(
  boot: () => Promise<Boot<T>>,
  { holdsLaterTiers = true, whenAsked = false }: BootTiming = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  let booting: Promise<Boot<T>> | null = null;
  let outcome: Promise<BootOutcome<T>> | null = null;
  const started = () =>
    (outcome ??= (booting = boot()).then(
      (booted) => ({ ok: true as const, value: booted.value }),
      (error: unknown) => ({ ok: false as const, error }),
    ));
  if (!whenAsked && holdsLaterTiers) boots().push(started());
  else if (!whenAsked) void started();
  const server = await startControlServer(async () => {
    // The answer waits for every boot of the run, not only this one: no test of a later tier
    // runs while a stack is still starting beside it (budgets of a second would feel the load).
    const own = started();
    const over = Promise.all(boots()).then(() => own);
    const hold = new Promise<null>((resolve) => setTimeout(resolve, HOLD_MS, null).unref());
    const result = await Promise.race([over, hold]);
    if (result === null) return [202, { booting: true }];
    if (result.ok) return [200, result.value];
    const { error } = result;
    return [500, { error: error instanceof Error ? error.stack : String(error) }];
  });
  return {
    url: server.url,
    stop: async () => {
      await server.close();
      const booted = await booting?.catch(() => null);
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
