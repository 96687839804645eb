import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The SQL of idempotency keys (issue 23 item 5). Each statement stands alone (autocommit): the
 * claim must be visible to a concurrent request with the same key before the mutation runs.
 */

export interface KeyOwner {
  role: string;
  subject: string;
  key: string;
}

/** A key already held: the request it was first used with, and its answer once there is one. */
export interface HeldKey {
  fingerprint: string;
  response: Record<string, unknown> | null;
}

/** How long a key is kept: the specification asks for at least 24 hours. */
export const KEY_RETENTION_HOURS = 24;

/**
 * How long a claim without an answer holds its key: past this the request that made it is taken
 * for dead (its process stopped mid-mutation) and the same request may run again. Longer than
 * any mutation's own waits (the provider's inline wait is seconds).
 */
export const ABANDONED_CLAIM_SECONDS = 120;

/**
 * Claims a key for a request; true when this request is the one to run. The primary key decides
 * between concurrent claims. A key past its retention is anyone's again; a claim left without an
 * answer is taken over by the same request only.
 */
export async function claimKey(
  em: EntityManager,
  owner: KeyOwner,
  fingerprint: string,
): Promise<boolean> {
  const rows = await em.execute<{ claimed: boolean }[]>(
    `insert into idempotency_key (role, subject, key, fingerprint) values (?, ?, ?, ?)
     on conflict (role, subject, key) do update
       set fingerprint = excluded.fingerprint, response = null, created_at = now(),
           completed_at = null
       where idempotency_key.created_at < now() - make_interval(hours => ?)
          or (idempotency_key.response is null
              and idempotency_key.fingerprint = excluded.fingerprint
              and idempotency_key.created_at < now() - make_interval(secs => ?))
     returning true as claimed`,
    [
      owner.role,
      owner.subject,
      owner.key,
      fingerprint,
      KEY_RETENTION_HOURS,
      ABANDONED_CLAIM_SECONDS,
    ],
  );
  return rows.length === 1;
}

export async function heldKey(em: EntityManager, owner: KeyOwner): Promise<HeldKey | null> {
  const rows = await em.execute<HeldKey[]>(
    `select fingerprint, response from idempotency_key
     where role = ? and subject = ? and key = ?`,
    [owner.role, owner.subject, owner.key],
  );
  return rows[0] ?? null;
}

/** Stores the answer of the request that holds the key. */
export async function storeAnswer(
  em: EntityManager,
  owner: KeyOwner,
  fingerprint: string,
  response: unknown,
): Promise<void> {
  await em.execute(
    `update idempotency_key set response = ?::jsonb, completed_at = now()
     where role = ? and subject = ? and key = ? and fingerprint = ? and response is null`,
    [JSON.stringify(response), owner.role, owner.subject, owner.key, fingerprint],
  );
}

/** Gives the key up: the answer was one worth retrying (the catalogue's `retryable`). */
export async function releaseKey(
  em: EntityManager,
  owner: KeyOwner,
  fingerprint: string,
): Promise<void> {
  await em.execute(
    `delete from idempotency_key
     where role = ? and subject = ? and key = ? and fingerprint = ? and response is null`,
    [owner.role, owner.subject, owner.key, fingerprint],
  );
}
