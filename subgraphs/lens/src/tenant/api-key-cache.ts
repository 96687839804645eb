import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { Logger } from '@campaign/platform';

/** The channel `revokeKey` notifies, with the revoked key's hash as payload. */
export const REVOCATION_CHANNEL = 'lens_api_key_revoked';
/** Keys remembered at most (least recently used first out): about 1 KB each. */
const MAX_KEYS = 10_000;
/**
 * How long a key's tenant is trusted without asking the database. It bounds how late a change of
 * the tenant's plan, permissions or rate limit applies; revocation does not wait for it.
 */
export const KEY_CACHE_TTL_MS = 5_000;
const RECONNECT_FIRST_MS = 200;
const RECONNECT_MAX_MS = 3_000;

export interface RevocationListener {
  listening: Promise<void>;
  stop(): Promise<void>;
}

/**
 * API key hash → its caller, in this process, so that a request costs no key look-up. Trusted
 * only while this process LISTENs on REVOCATION_CHANNEL: a revocation (in any process, CLI or
 * admin mutation) notifies every replica when it commits, and each drops the key before its next
 * request is served. While the listening connection is down the cache is empty and unused (every
 * request asks the database), and it starts empty again once it is back, since notifications
 * sent meanwhile were lost. A look-up that raced a revocation is not stored (`generation`).
 */
export class ApiKeyCache<V extends object> {
  private readonly entries = new LRUCache<string, V>({ max: MAX_KEYS, ttl: KEY_CACHE_TTL_MS });
  private listening = false;
  /** Moves on every revocation heard and every change of `listening`. */
  private generation = 0;

  get(keyHash: string): V | undefined {
    return this.listening ? this.entries.get(keyHash) : undefined;
  }

  /** Where a look-up starts: pass it to `set`, which ignores a look-up older than a revocation. */
  mark(): number {
    return this.generation;
  }

  set(keyHash: string, value: V, mark: number): void {
    if (this.listening && mark === this.generation) this.entries.set(keyHash, value);
  }

  forget(keyHash: string): void {
    this.generation++;
    this.entries.delete(keyHash);
  }

  /**
   * Listens for revocations on its own connection until `stop` is called, connecting again after
   * a loss (0.2 s, doubling up to 3 s), like the job runner's supervisor. `listening` resolves
   * when the cache is first in use.
   */
  listen(connectionString: string, logger: Logger): RevocationListener {
    let stopped = false;
    let heard!: () => void;
    const listening = new Promise<void>((resolve) => {
      heard = resolve;
    });
    let client: pg.Client | null = null;
    let delay = RECONNECT_FIRST_MS;
    let timer: NodeJS.Timeout | undefined;
    const lost = (from: pg.Client, err?: unknown) => {
      // A connection reports a loss once ('error' and 'end' may both come).
      if (client !== from) return;
      if (this.listening) logger.warn({ err }, 'API key revocations unheard; key cache off');
      this.setListening(false);
      client = null;
      from.end().catch(() => undefined);
      if (stopped) return;
      timer = setTimeout(connect, delay);
      timer.unref();
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    };
    const connect = () => {
      const next = new pg.Client({ connectionString });
      client = next;
      next.on('error', (err) => lost(next, err));
      next.on('end', () => lost(next));
      next.on('notification', (message) => {
        if (message.channel === REVOCATION_CHANNEL && message.payload) this.forget(message.payload);
      });
      next
        .connect()
        .then(() => next.query(`listen ${REVOCATION_CHANNEL}`))
        .then(() => {
          if (stopped || client !== next) return;
          delay = RECONNECT_FIRST_MS;
          this.setListening(true);
          heard();
        })
        .catch((err: unknown) => lost(next, err));
    };
    connect();
    const stop = async () => {
      stopped = true;
      clearTimeout(timer);
      this.setListening(false);
      const last = client;
      client = null;
      await last?.end().catch(() => undefined);
    };
    return { listening, stop };
  }

  private setListening(on: boolean): void {
    this.listening = on;
    this.generation++;
    this.entries.clear();
  }
}
