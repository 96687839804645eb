import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  freePort,
  loadStackConfig,
  startEmbeddedPostgres,
  startStack,
  type EmbeddedDatabase,
  type RunningStack,
} from '@campaign/stack';
import type { BenchMode } from './mode.js';

/** Runs statements on one database and closes the connection. */
export async function withSql<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The bench's own embedded PostgreSQL with pg_stat_statements preloaded (statements per request),
 * then the whole stack on it, on free ports, plus a gateway on the Hive engine.
 */
/**
 * The sets of services of the bench stack after the first: a gateway on the Hive engine, then
 * three full sets that only the cost cells use (issue 26), so each is as warm as the others:
 * the default (metrics on, tracing off), metrics off, and tracing every request into `otlpUrl`.
 */
export const HIVE_SET = 1;
export const DEFAULT_SET = 2;
export const METRICS_OFF_SET = 3;
export const TRACED_SET = 4;
/** Issue 27: the Hive engine on Hive Router's Rust query planner (`@graphql-hive/router-runtime`). */
export const HIVE_RUST_SET = 5;

export async function startBenchStack(
  otlpUrl: string,
  mode: BenchMode,
): Promise<{
  stack: RunningStack;
  db: EmbeddedDatabase;
  dataDir: string;
}> {
  const dataDir = await mkdtemp(join(tmpdir(), 'campaign-bench-'));
  await chmod(dataDir, 0o755); // PostgreSQL runs as `nobody` when we are root
  const [pgPort, rest, gateway, lens, settlement, providers] = await Promise.all(
    Array.from({ length: 6 }, freePort),
  );
  const db = await startEmbeddedPostgres({
    dataDir: join(dataDir, 'postgres'),
    port: pgPort,
    log: () => undefined,
  });
  await withSql(db.urlFor('postgres'), (c) =>
    c.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`),
  );
  await db.stop();
  await db.start();
  await withSql(db.urlFor('postgres'), (c) =>
    c.query('create extension if not exists pg_stat_statements'),
  );
  const config = loadStackConfig({
    DATA_DIR: dataDir,
    LENS_DATABASE_URL: db.urlFor('lens'),
    SETTLEMENT_DATABASE_URL: db.urlFor('settlement'),
    REST_PORT: String(rest),
    GATEWAY_PORT: String(gateway),
    LENS_PORT: String(lens),
    SETTLEMENT_PORT: String(settlement),
    PROVIDERS_BASE_PORT: String(providers),
    MAIL_SIM_SMTP_PORT: '0',
    MAIL_SIM_HTTP_PORT: '0',
    CHAT_SIM_PORT: '0',
    TAX_INVOICE_SIM_PORT: '0',
    TAX_AUTHORITY_SIM_PORT: '0',
    LOG_LEVEL: 'warn',
    ...(mode.webhookSecret ? { TAX_INVOICE_WEBHOOK_SECRET: mode.webhookSecret } : {}),
  });
  try {
    // Gateways on the Hive engine (its own planner, and the Rust one) in front of the same
    // subgraphs (issues 16 and 27: the engines side by side), each with an adapter in front.
    const stack = await startStack({
      config,
      log: () => undefined,
      serviceOutput: 'ignore',
      serviceEnv: mode.serviceEnv,
      replicaSets: [
        { env: { GATEWAY_ENGINE: 'hive' }, subgraphs: false },
        {},
        { env: { METRICS_ENABLED: 'false' } },
        {
          env: {
            OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
            OTEL_TRACES_SAMPLER: 'always_on',
          },
        },
        { env: { GATEWAY_ENGINE: 'hive', GATEWAY_QUERY_PLANNER: 'rust' }, subgraphs: false },
      ],
    });
    return { stack, db, dataDir };
  } catch (error) {
    await db.stop(); // a stack that did not come up leaves no PostgreSQL behind
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Tenants with REST keys, plenty of credits and no practical rate limit; returns the keys. */
export async function createTenants(lensUrl: string, count: number): Promise<string[]> {
  return withSql(lensUrl, async (c) => {
    const keys: string[] = [];
    for (let i = 0; i < count; i++) {
      const tenant = randomUUID();
      const key = `lk_live_${randomBytes(24).toString('base64url')}`;
      const credits = 1_000_000_000_000;
      await c.query(
        `insert into tenant (id, name, plan, permissions, rate_limit_per_minute, credit_balance)
         values ($1, $2, 'pro', '{*}', 1000000000, $3)`,
        [tenant, `bench ${i}`, credits],
      );
      await c.query(
        `insert into credit_ledger_entry (tenant_id, kind, amount, balance_after)
         values ($1, 'TOP_UP', $2, $2)`,
        [tenant, credits],
      );
      await c.query(
        `insert into api_key (id, tenant_id, kind, name, key_prefix, key_hash)
         values ($1, $2, 'rest', 'bench key', $3, $4)`,
        [randomUUID(), tenant, key.slice(0, 12), createHash('sha256').update(key).digest('hex')],
      );
      keys.push(key);
    }
    return keys;
  });
}

/** Enough settlements for a page of 100 (each on its own campaign), newest first. */
export async function createSettlements(settlementUrl: string, count: number): Promise<void> {
  await withSql(settlementUrl, async (c) => {
    for (let i = 0; i < count; i++) {
      const partner = (i % 3) + 1;
      const { rows } = await c.query<{ id: string }>(
        `insert into campaign (partner_id, advertiser_id, title, price, status)
         values ($1, 1, $2, 1000000.00, 'COMPLETED') returning id`,
        [partner, `Bench campaign ${i}`],
      );
      await c.query(
        `insert into settlement (campaign_id, partner_id, campaign_price, commission_rate,
           commission_amount, settlement_amount, withholding_tax_rate, withholding_tax_amount,
           payout_amount, settlement_type)
         values ($1, $2, 1000000.00, 15.00, 150000.00, 850000.00, 0, 0, 850000.00,
                 'PLATFORM_SETTLEMENT')`,
        [rows[0]!.id, partner],
      );
    }
  });
}
