import type { PreparedStatement } from '@campaign/platform';

/**
 * The engine's hot-path statements, sent as node-postgres named statements (`runPrepared`). The
 * money rules live in the SQL functions of migration billed_path; each call here is one statement
 * in its own transaction: one commit.
 */

/**
 * Idempotency probe, reservation, RESERVE entry, the inline attempt's lease and the credential's
 * last-used time (one commit).
 */
export const START: PreparedStatement = {
  name: 'lens_start_operation',
  text: `select * from lens_start_operation($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12)`,
};

/** Terminal status, result, RELEASE and CHARGE entries and the balance (one commit). */
export const SETTLE: PreparedStatement = {
  name: 'lens_settle_operation',
  text: `select * from lens_settle_operation($1, $2, $3::jsonb, $4::jsonb, $5::timestamptz, $6)`,
};

/** An attempt (a job's, an admin's) takes the lease of an operation still in `$4`. */
export const CLAIM: PreparedStatement = {
  name: 'lens_claim_operation',
  text: `update operation set attempt_owner = $1, attempts = attempts + 1,
           lease_expires_at = now() + $2 * interval '1 millisecond', updated_at = now()
         where id = $3 and status = $4
         returning *`,
};

export const RENEW: PreparedStatement = {
  name: 'lens_renew_lease',
  text: `update operation set lease_expires_at = now() + $1 * interval '1 millisecond'
         where id = $2 and attempt_owner = $3 and status in ('RUNNING', 'RECONCILIATION_REQUIRED')`,
};

export const OPERATION_BY_ID: PreparedStatement = {
  name: 'lens_operation_by_id',
  text: `select * from operation where id = $1`,
};

/** The status look-up: another tenant's operation is not found, like an unknown one. */
export const OPERATION_OF_TENANT: PreparedStatement = {
  name: 'lens_operation_of_tenant',
  text: `select * from operation where id = $1 and tenant_id = $2`,
};
