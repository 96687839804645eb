import type { Adapter, AdapterPayload } from 'oidc-provider';
import pg from 'pg';

/**
 * oidc-provider's storage in PostgreSQL (the lens database's `oauth_payload` table, created by
 * lens migration Migration20270105000000_oauth), so that every adapter replica sees the same
 * clients, codes, tokens and grants, and a revocation on one is a revocation on all. One row per
 * (model, id); a row past `expires_at` is treated as absent.
 */
export class PgStorage {
  readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 4 });
  }

  /**
   * The adapter class oidc-provider constructs once per model name. `unknownClient` answers a
   * client id that is not stored (client ID metadata documents).
   */
  adapterFor(
    unknownClient?: (id: string) => Promise<AdapterPayload | undefined>,
  ): new (model: string) => Adapter {
    const pool = this.pool;
    return class {
      constructor(readonly model: string) {}
      upsert = (id: string, payload: AdapterPayload, expiresIn?: number) =>
        upsert(pool, this.model, id, payload, expiresIn);
      find = async (id: string) => {
        const found = await findBy(pool, this.model, 'id', id);
        if (found || this.model !== 'Client' || !unknownClient) return found;
        return unknownClient(id);
      };
      findByUid = (uid: string) => findBy(pool, this.model, 'uid', uid);
      findByUserCode = (code: string) => findBy(pool, this.model, 'user_code', code);
      consume = async (id: string) => {
        await pool.query(
          `update oauth_payload set consumed_at = now() where model = $1 and id = $2`,
          [this.model, id],
        );
      };
      destroy = async (id: string) => {
        await pool.query(`delete from oauth_payload where model = $1 and id = $2`, [
          this.model,
          id,
        ]);
      };
      revokeByGrantId = async (grantId: string) => {
        await pool.query(`delete from oauth_payload where grant_id = $1`, [grantId]);
      };
    };
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

async function upsert(
  pool: pg.Pool,
  model: string,
  id: string,
  payload: AdapterPayload,
  expiresIn?: number,
): Promise<void> {
  // Each write sweeps a few expired rows, so the table holds little more than what is live.
  await pool.query(
    `delete from oauth_payload where ctid in (
       select ctid from oauth_payload where expires_at < now() limit 10)`,
  );
  await pool.query(
    `insert into oauth_payload (model, id, payload, grant_id, uid, user_code, expires_at)
     values ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 second')
     on conflict (model, id) do update set payload = excluded.payload,
       grant_id = excluded.grant_id, uid = excluded.uid, user_code = excluded.user_code,
       expires_at = excluded.expires_at`,
    [
      model,
      id,
      payload,
      payload.grantId ?? null,
      payload.uid ?? null,
      payload.userCode ?? null,
      expiresIn || null, // 0 or none: kept until destroyed
    ],
  );
}

async function findBy(
  pool: pg.Pool,
  model: string,
  column: 'id' | 'uid' | 'user_code',
  value: string,
): Promise<AdapterPayload | undefined> {
  const { rows } = await pool.query<{ payload: AdapterPayload; consumed: number | null }>(
    `select payload, extract(epoch from consumed_at)::bigint as consumed from oauth_payload
     where model = $1 and ${column} = $2 and (expires_at is null or expires_at > now())`,
    [model, value],
  );
  const row = rows[0];
  if (!row) return undefined;
  return row.consumed === null ? row.payload : { ...row.payload, consumed: Number(row.consumed) };
}
