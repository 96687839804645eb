import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';

const WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/** The IETF draft headers (draft-ietf-httpapi-ratelimit-headers) for one state. */
export function rateLimitHeaders(state: RateLimitState) {
  return {
    rateLimitPolicy: `${state.limit};w=${WINDOW_SECONDS}`,
    rateLimit: `limit=${state.limit}, remaining=${state.remaining}, reset=${state.reset}`,
  };
}

/**
 * Requests per minute per API key, counted in PostgreSQL so every replica shares the count
 * (DESIGN.md L8): one atomic upsert on a fixed one-minute window that starts with the key's first
 * request in it. Over the limit is 429 RATE_LIMITED with Retry-After and the RateLimit headers.
 */
export class RateLimiter {
  async consume(em: EntityManager, bucket: string, limit: number): Promise<RateLimitState> {
    const [row] = await em.execute<{ hits: number; reset: string }[]>(
      `insert into rate_limit_window as w (bucket, window_start, hits) values (?, now(), 1)
       on conflict (bucket) do update set
         window_start = case when w.window_start <= now() - make_interval(secs => ?)
                             then now() else w.window_start end,
         hits = case when w.window_start <= now() - make_interval(secs => ?)
                     then 1 else w.hits + 1 end
       returning hits,
         ceil(extract(epoch from (window_start + make_interval(secs => ?) - now()))) as reset`,
      [bucket, WINDOW_SECONDS, WINDOW_SECONDS, WINDOW_SECONDS],
    );
    const hits = Number(row!.hits);
    const state = {
      limit,
      remaining: Math.max(0, limit - hits),
      reset: Math.max(1, Number(row!.reset)),
    };
    if (hits > limit) {
      throw new PlatformError(
        'RATE_LIMITED',
        `More than ${limit} requests per minute with this API key; retry in ${state.reset} s.`,
        { retryAfterSeconds: state.reset, ...rateLimitHeaders(state) },
      );
    }
    return state;
  }
}
