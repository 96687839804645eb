/**
 * The statement that writes an outbox message and its delivery job, in both of its forms: for a
 * service transaction (`OutboxRepository.enqueue`) and as a SQL function for a database whose own
 * SQL writes messages (`outbox_enqueue`, created by the migration that makes the outbox table).
 */

/** One job key per row: re-adding a row's job replaces the waiting one instead of adding one. */
export const OUTBOX_JOB_KEY_PREFIX = 'outbox:';
export const outboxJobKey = (id: string) => `${OUTBOX_JOB_KEY_PREFIX}${id}`;
/**
 * Attempts graphile-worker itself makes when a delivery job throws, i.e. when the database
 * failed under it (failures of the outside system are counted on the row, not here).
 */
export const DELIVERY_JOB_MAX_ATTEMPTS = 25;

/** A plain SQL identifier (a column name given in code, checked before it is written into SQL). */
export const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The enqueue statement over SQL expressions for its values: `?` placeholders for `enqueue`, a SQL
 * function's parameters for `outboxEnqueueFunctionSql` (lens writes its alert from inside the
 * reservation's own function): one statement, two ways to call it.
 */
export function enqueueStatement(
  subjectColumn: string,
  v: Record<
    | 'event'
    | 'channel'
    | 'recipient'
    | 'payload'
    | 'dedupeKey'
    | 'subject'
    | 'traceContext'
    | 'task'
    | 'jobKeyPrefix'
    | 'maxAttempts',
    string
  >,
  /** A PL/pgSQL variable to select the job into (a function's body cannot discard a row). */
  into = '',
): string {
  if (!SQL_IDENTIFIER.test(subjectColumn)) throw new Error(`not a column name: ${subjectColumn}`);
  return `with inserted as (
         insert into outbox (event, channel, recipient, payload, dedupe_key, ${subjectColumn},
           trace_context)
         values (${v.event}, ${v.channel}, ${v.recipient}, ${v.payload}, ${v.dedupeKey}, ${v.subject},
           ${v.traceContext})
         on conflict (dedupe_key) do nothing
         returning id::text as id)
       select graphile_worker.add_job(${v.task}, json_build_object('id', id),
         job_key => ${v.jobKeyPrefix} || id, max_attempts => ${v.maxAttempts})${into ? ` into ${into}` : ''}
       from inserted`;
}

/**
 * `outbox_enqueue(event, channel, recipient, payload, dedupe_key, subject, task)`: the enqueue
 * statement as a SQL function, for a database whose own SQL writes messages (its payload gains
 * `event`, as `enqueue` adds it). The migration that makes the outbox table creates it; PL/pgSQL,
 * so that graphile-worker's schema need not exist yet when it is created.
 */
export function outboxEnqueueFunctionSql(subject: { column: string; type: string }): string {
  if (!/^[a-z ]{1,30}$/.test(subject.type)) throw new Error(`not a type: ${subject.type}`);
  return `create or replace function outbox_enqueue(p_event text, p_channel text,
      p_recipient text, p_payload jsonb, p_dedupe_key text, p_subject ${subject.type}, p_task text)
    returns void language plpgsql as $$
    declare
      v_job record;
    begin
      ${enqueueStatement(
        subject.column,
        {
          event: 'p_event',
          channel: 'p_channel',
          recipient: 'p_recipient',
          payload: "jsonb_build_object('event', p_event) || p_payload",
          dedupeKey: 'p_dedupe_key',
          subject: 'p_subject',
          // Written by the database's own SQL: no request trace to continue.
          traceContext: 'null',
          task: 'p_task',
          jobKeyPrefix: `'${OUTBOX_JOB_KEY_PREFIX}'`,
          maxAttempts: String(DELIVERY_JOB_MAX_ATTEMPTS),
        },
        'v_job',
      )};
    end $$`;
}
