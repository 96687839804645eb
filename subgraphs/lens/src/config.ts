import { z } from 'zod';
import {
  booleanVar,
  databaseUrlVar,
  DEVELOPMENT_SECRETS,
  graphqlLimitVars,
  hostVar,
  jwtIssuerVar,
  jwtSecretVar,
  logLevelVar,
  mailerEnv,
  outboxEnv,
  parseEnv,
  portVar,
  SUBGRAPH_LIMITS,
  subgraphSecretVar,
  urlVar,
} from '@campaign/platform';

const price = z.strictObject({
  base: z.number().int().min(0).optional(),
  perItem: z.number().int().min(0).optional(),
});

/** `{"accounts.posts": {"base": 2, "perItem": 1}}`: per-operation overrides of the default prices. */
const pricesVar = z
  .string()
  .default('{}')
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string(), price));

const listVar = z
  .string()
  .default('')
  .transform((text) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const schema = z.object({
  LENS_HOST: hostVar,
  LENS_PORT: portVar(4001),
  LENS_DATABASE_URL: databaseUrlVar,
  LENS_UPSTREAM_URL: urlVar,
  LENS_UPSTREAM_TOKEN: z.string().optional(),
  LENS_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  LENS_SYNC_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  LENS_CURSOR_SECRET: z.string().min(16).default(DEVELOPMENT_SECRETS.cursor),
  LENS_INTROSPECTION: booleanVar(true),
  /** Operation names switched off in this deployment (403 OPERATION_DISABLED). */
  LENS_DISABLED_OPERATIONS: listVar,
  LENS_PRICES: pricesVar,
  /** How long an execution owns its operation without a heartbeat before it counts as dead. */
  LENS_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How often the reconciler looks for RUNNING operations whose lease expired. */
  LENS_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** Executions one lens process runs at once (graphile-worker concurrency). */
  LENS_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(10),
  /** How long a rotated credential keeps working (default 24 hours, at most 30 days). */
  LENS_KEY_ROTATION_GRACE_SECONDS: z.coerce.number().int().min(0).max(2_592_000).default(86_400),
  AUTH_JWT_SECRET: jwtSecretVar,
  AUTH_JWT_ISSUER: jwtIssuerVar,
  SUBGRAPH_SECRET: subgraphSecretVar,
  ...graphqlLimitVars('LENS', SUBGRAPH_LIMITS),
  LOG_LEVEL: logLevelVar,
  /** The low-balance e-mail: the platform's SMTP settings and outbox delivery (issue 24). */
  ...mailerEnv.shape,
  ...outboxEnv.shape,
});

export type LensConfig = z.infer<typeof schema>;

export function loadLensConfig(env: Record<string, string | undefined> = process.env): LensConfig {
  return parseEnv('lens subgraph', schema, env);
}
