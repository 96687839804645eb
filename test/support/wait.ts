/**
 * The one way tests wait, in every tier (issue 22): polls `read` every `intervalMs` until `done`
 * holds, then returns the last reading; fails with that reading after `timeoutMs`. Never a fixed
 * sleep: the wait ends as soon as the fact holds.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 30_000,
  intervalMs = 150,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms; last seen ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
