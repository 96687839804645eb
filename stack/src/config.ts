import { z } from 'zod';
import { logLevelVar, parseEnv, portVar } from '@campaign/platform';

const optionalUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
  .optional();

const schema = z.object({
  DATA_DIR: z.string().min(1).default('.data'),
  EMBEDDED_PG_PORT: portVar(5433),
  LENS_DATABASE_URL: optionalUrl,
  SETTLEMENT_DATABASE_URL: optionalUrl,
  REST_PORT: portVar(8080),
  GATEWAY_PORT: portVar(4000),
  LENS_PORT: portVar(4001),
  SETTLEMENT_PORT: portVar(4002),
  PROVIDERS_BASE_PORT: portVar(4100),
  LENS_UPSTREAM_URL: z.url().optional(),
  LOG_LEVEL: logLevelVar,
});

export type StackConfig = z.infer<typeof schema>;

/** The orchestrator's own settings; each service still validates its own environment. */
export function loadStackConfig(
  env: Record<string, string | undefined> = process.env,
): StackConfig {
  const config = parseEnv('stack', schema, env);
  if (Boolean(config.LENS_DATABASE_URL) !== Boolean(config.SETTLEMENT_DATABASE_URL)) {
    throw new Error(
      'Set both LENS_DATABASE_URL and SETTLEMENT_DATABASE_URL, or neither (embedded PostgreSQL).',
    );
  }
  return config;
}
