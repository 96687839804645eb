import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A statement sent as a node-postgres named (prepared) statement: PostgreSQL parses and plans it
 * once per connection, and the parameters travel apart from the text. MikroORM's `execute`
 * inlines parameters in JavaScript and sends plain text through knex, about 0.4 ms of CPU per
 * statement on this machine (STACK-NOTES.md); hot paths use this instead.
 */
export interface PreparedStatement {
  /** Unique per text: node-postgres refuses a known name with another text on one connection. */
  name: string;
  /** SQL with `$1`, `$2`, ... placeholders. */
  text: string;
}

/** What a prepared statement runs on: any MikroORM PostgreSQL EntityManager (or fork). */
export type PreparedSqlStore = Pick<EntityManager, 'getKnex'>;

interface PgConnection {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
    rowMode?: 'array';
  }): Promise<{ rows: unknown[] }>;
}

/**
 * Runs `statement` on a connection of the EntityManager's own pool (the ORM's knex pool), in
 * autocommit: it is its own transaction, never part of an `em.transactional` one. Timestamps come
 * back as PostgreSQL's text, as they do through MikroORM (its connections parse no dates).
 */
export async function runPrepared<R>(
  store: PreparedSqlStore,
  statement: PreparedStatement,
  values: unknown[],
  /** `'array'`: each row as its values in column order (node-postgres's row mode). */
  rowMode?: 'array',
): Promise<R[]> {
  const client = store.getKnex().client as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(connection: PgConnection): Promise<unknown>;
  };
  const connection = await client.acquireConnection();
  try {
    const { name, text } = statement;
    const result = await connection.query(
      rowMode ? { name, text, values, rowMode } : { name, text, values },
    );
    return result.rows as R[];
  } finally {
    await client.releaseConnection(connection);
  }
}
