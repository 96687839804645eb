import pg from 'pg';

/**
 * A plain PostgreSQL client for tests and tools that look at a database directly (counting rows,
 * forcing a state a crash would leave). Not used by the services.
 */
export interface Sql {
  query<R extends Record<string, unknown> = Record<string, unknown>>(
    text: string,
    params?: unknown[],
  ): Promise<R[]>;
  end(): Promise<void>;
}

export async function connectSql(url: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <R extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await client.query<R>(text, params)).rows,
    end: () => client.end(),
  };
}
