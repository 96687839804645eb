export interface CachedCheckOptions {
  /** A check that has not answered by then counts as failed ("not ready"). */
  timeoutMs: number;
  /** How long an outcome (success or failure) is reused before the dependency is asked again. */
  cacheMs: number;
  /** Prefix of the failure message (`database unreachable`, ...). */
  name: string;
}

/**
 * Wraps a readiness check (`select 1`, a call to a dependency) for `/readyz`: a burst of probes
 * costs one check per `cacheMs`, a dependency that hangs answers "not ready" after `timeoutMs`
 * instead of holding the probe (load balancers and the gateway give up after about 2 s), and a
 * check that is still hanging is not started again, so probes never pile up on a pool that is
 * already stuck.
 */
export function cachedCheck(
  check: () => Promise<void>,
  options: CachedCheckOptions,
): () => Promise<void> {
  let last: { at: number; outcome: Promise<void> } | null = null;
  let pending: Promise<void> | null = null;
  return () => {
    const now = Date.now();
    if (last && now - last.at < options.cacheMs) return last.outcome;
    let outcome: Promise<void>;
    if (pending) {
      outcome = Promise.reject(
        new Error(`${options.name}: the previous check has not answered yet`),
      );
    } else {
      const running = check().finally(() => {
        if (pending === running) pending = null;
      });
      pending = running;
      outcome = withTimeout(running, options.timeoutMs, options.name);
    }
    // Callers see the outcome; this only keeps a failure nobody asked for from being "unhandled".
    outcome.catch(() => undefined);
    last = { at: now, outcome };
    return outcome;
  };
}

function withTimeout(promise: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${name}: no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([
    promise.catch((error: unknown) => {
      throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }),
    timeout,
  ]).finally(() => clearTimeout(timer));
}
