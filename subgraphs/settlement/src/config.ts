import { z } from 'zod';
import {
  booleanVar,
  graphqlLimitVars,
  hostVar,
  jwtIssuerVar,
  jwtSecretVar,
  logLevelVar,
  parseEnv,
  portVar,
  SUBGRAPH_LIMITS,
  subgraphSecretVar,
} from '@campaign/platform';

const schema = z.object({
  SETTLEMENT_HOST: hostVar,
  SETTLEMENT_PORT: portVar(4002),
  SETTLEMENT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  AUTH_JWT_SECRET: jwtSecretVar,
  AUTH_JWT_ISSUER: jwtIssuerVar,
  SUBGRAPH_SECRET: subgraphSecretVar,
  SETTLEMENT_INTROSPECTION: booleanVar(true),
  ...graphqlLimitVars('SETTLEMENT', SUBGRAPH_LIMITS),
  LOG_LEVEL: logLevelVar,
});

export type SettlementConfig = z.infer<typeof schema>;

export function loadSettlementConfig(
  env: Record<string, string | undefined> = process.env,
): SettlementConfig {
  return parseEnv('settlement subgraph', schema, env);
}
