import { z } from 'zod';
import { booleanVar, hostVar, logLevelVar, parseEnv, portVar } from '@campaign/platform';

export const DEVELOPMENT_JWT_SECRET = 'development-only-jwt-secret-change-me-32+';

const schema = z.object({
  SETTLEMENT_HOST: hostVar,
  SETTLEMENT_PORT: portVar(4002),
  SETTLEMENT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  AUTH_JWT_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .default(DEVELOPMENT_JWT_SECRET),
  AUTH_JWT_ISSUER: z.string().default('campaign-platform'),
  SETTLEMENT_INTROSPECTION: booleanVar(true),
  LOG_LEVEL: logLevelVar,
});

export type SettlementConfig = z.infer<typeof schema>;

export function loadSettlementConfig(
  env: Record<string, string | undefined> = process.env,
): SettlementConfig {
  return parseEnv('settlement subgraph', schema, env);
}
