import { randomUUID } from 'node:crypto';
import { lensCall, sleep, type Answer, type LensAnswer } from './fault-stack.js';

/** Every answer a lens journey saw, by HTTP status (0: no connection). */
export type StatusCounts = Record<number, number>;

export const count = (counts: StatusCounts, status: number) => {
  counts[status] = (counts[status] ?? 0) + 1;
};

/** The answer a client may see while a dependency is gone: retryable 503, or 500 naming the operation. */
export function documentedFailure(answer: Answer<LensAnswer>): boolean {
  if (answer.status === 503) return answer.body?.error?.retryable === true;
  if (answer.status === 500)
    return answer.body?.error?.code === 'EXECUTION_FAILED' && !!answer.body.error.operationId;
  // A gateway being restarted refuses the connection; the adapter answers 503 for it.
  return answer.status === 0;
}

export interface Journey {
  idempotencyKey: string;
  operationId: string;
  status: string;
  /** Answers outside the documented set (kept to fail the test with them). */
  undocumented: Answer<LensAnswer>[];
}

/**
 * A client that does what the documentation says: it repeats a billed request with the same
 * idempotency key, across `rests` in turn, until the operation is SUCCEEDED or FAILED.
 */
export async function lensJourney(
  rests: readonly string[],
  key: string,
  handle: string,
  counts: StatusCounts,
  idempotencyKey: string = randomUUID(),
  timeoutMs = 90_000,
): Promise<Journey> {
  const deadline = Date.now() + timeoutMs;
  const undocumented: Answer<LensAnswer>[] = [];
  for (let turn = 0; ; turn++) {
    const answer = await lensCall(
      rests[turn % rests.length]!,
      key,
      '/accounts/profile',
      { accountRef: { handle } },
      idempotencyKey,
    );
    count(counts, answer.status);
    const data = answer.body?.data;
    if (data && (data.status === 'SUCCEEDED' || data.status === 'FAILED'))
      return { idempotencyKey, operationId: data.operationId, status: data.status, undocumented };
    if (answer.status >= 300 && !documentedFailure(answer)) undocumented.push(answer);
    if (Date.now() > deadline)
      throw new Error(`${handle} not terminal: ${JSON.stringify(answer.body)}`);
    await sleep(answer.status === 202 ? 300 : 200);
  }
}
