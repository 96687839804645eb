import { account, type SimAccount } from './accounts.js';
import { handleOfId, normalizeHandle } from './ids.js';
import type { SimMedia } from './media.js';

export interface SimulatorSettings {
  /** Unix seconds that "now" is on the simulated platform: every timestamp is relative to it. */
  epoch: number;
  slowDelayMs: number;
  /** The `slow_` answers still waiting: `answerNow` ends their wait (tests, issue 22). */
  waiting: Set<() => void>;
}

/** An error answer of the platform: `{"message": ..., "status": "fail", ...}`. */
export class SimError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const fail = (statusCode: number, message: string, extra: Record<string, unknown> = {}) =>
  new SimError(statusCode, { message, status: 'fail', ...extra });

export const answers = {
  notFound: () => fail(404, 'User not found'),
  notAuthorized: () => fail(400, 'Not authorized to view user'),
  unavailable: () => fail(503, 'Please try again later.'),
  featureUnavailable: () =>
    fail(400, 'This feature is not available', { error_type: 'feature_unavailable' }),
  badRequest: (message: string) => fail(400, message),
  loginRequired: () => fail(401, 'login_required', { require_login: true, logout_reason: 2 }),
};

/** The `slow_` delay, unless `answerNow` ends it first. */
export function slowDown(settings: SimulatorSettings): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      settings.waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, settings.slowDelayMs);
    settings.waiting.add(done);
  });
}

/**
 * Every `slow_` answer still waiting goes out now (`POST /_sim/answer-now`): a test that has
 * seen what the delay is for (a 202 past the sync budget) need not sit out the rest of it.
 * Answers how many were waiting.
 */
export function answerNow(settings: SimulatorSettings): number {
  const waiting = [...settings.waiting];
  for (const done of waiting) done();
  return waiting.length;
}

export function byHandle(handle: string | undefined): SimAccount | null {
  const normal = handle === undefined ? null : normalizeHandle(handle);
  return normal ? account(normal) : null;
}

export function byId(id: string | undefined): SimAccount | null {
  const handle = id === undefined ? null : handleOfId(id);
  return handle ? account(handle) : null;
}

/**
 * Applies the account's scenario before an endpoint answers: `flaky_` 503, `slow_` a delay,
 * `missing_` 404, and on content endpoints `private_` "Not authorized to view user".
 */
export async function enter(
  settings: SimulatorSettings,
  acc: SimAccount | null,
  kind: 'profile' | 'content',
): Promise<SimAccount> {
  if (!acc) throw answers.notFound();
  if (acc.scenario.flaky) throw answers.unavailable();
  if (acc.scenario.slow) await slowDown(settings);
  if (acc.scenario.missing) throw answers.notFound();
  if (kind === 'content' && acc.scenario.private) throw answers.notAuthorized();
  return acc;
}

export function pageSize(raw: string | undefined, fallback: number, max: number): number {
  const n = raw === undefined ? fallback : Number.parseInt(raw, 10);
  if (!Number.isFinite(n) || n < 1) return fallback;
  return Math.min(n, max);
}

/** A media feed page; `max_id` is the `id` (`<pk>_<owner id>`) of the last item already seen. */
export function mediaPage(items: SimMedia[], count: number, maxId: string | undefined) {
  let start = 0;
  if (maxId) {
    const index = items.findIndex((m) => `${m.pk}_${m.owner.id}` === maxId);
    if (index < 0) throw answers.badRequest('Invalid max_id');
    start = index + 1;
  }
  const page = items.slice(start, start + count);
  const last = page.at(-1);
  const more = start + count < items.length && last !== undefined;
  return { page, more, nextMaxId: more && last ? `${last.pk}_${last.owner.id}` : undefined };
}

/** An offset-paged list page; `max_id` is the offset, as a decimal string. */
export function offsetPage<T>(items: T[], count: number, maxId: string | undefined) {
  const start = maxId === undefined || maxId === '' ? 0 : Number(maxId);
  if (!Number.isSafeInteger(start) || start < 0 || start > items.length) {
    throw answers.badRequest('Invalid max_id');
  }
  const end = start + count;
  return { page: items.slice(start, end), nextMaxId: end < items.length ? String(end) : undefined };
}
