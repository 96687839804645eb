import { z } from 'zod';
import { databaseUrlVar, logLevelVar, parseEnv, portVar } from '@campaign/platform';

const optionalUrl = databaseUrlVar.optional();
const optionalPort = z.coerce.number().int().min(0).max(65535).optional();

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
  // Outside systems (issue 11): a simulator is started for each whose real endpoint is not set.
  SMTP_HOST: z.string().min(1).optional(),
  TEAM_CHAT_WEBHOOK_URL: z.url().optional(),
  TAX_INVOICE_PROVIDER_URL: z.url().optional(),
  TAX_AUTHORITY_URL: z.url().optional(),
  // Each simulator's port, when not PROVIDERS_BASE_PORT + its offset (0: any free port).
  MAIL_SIM_SMTP_PORT: optionalPort,
  MAIL_SIM_HTTP_PORT: optionalPort,
  CHAT_SIM_PORT: optionalPort,
  TAX_INVOICE_SIM_PORT: optionalPort,
  TAX_AUTHORITY_SIM_PORT: optionalPort,
  TAX_INVOICE_SIM_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(3000),
  // Optional here (no published default): the simulator and the platform fall back to the
  // development value, so the stack itself has no secret to warn about.
  TAX_INVOICE_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
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
