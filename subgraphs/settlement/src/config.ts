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
import { outboxEnv } from '@campaign/platform';
import { outsideSystemsEnv } from './outside/config.js';

const schema = z.object({
  SETTLEMENT_HOST: hostVar,
  SETTLEMENT_PORT: portVar(4002),
  SETTLEMENT_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  AUTH_JWT_SECRET: jwtSecretVar,
  AUTH_JWT_ISSUER: jwtIssuerVar,
  SUBGRAPH_SECRET: subgraphSecretVar,
  SETTLEMENT_INTROSPECTION: booleanVar(true),
  ...graphqlLimitVars('SETTLEMENT', SUBGRAPH_LIMITS),
  // Mail, team chat, tax-invoice provider, tax authority (issue 11): simulators by default.
  ...outsideSystemsEnv.shape,
  // How long the partner's request waits for the provider's approval URL (issue 11, S11).
  TAX_INVOICE_INLINE_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
  // Issue 23 item 4: an issued invoice is due this many days later (fractions allowed), and a
  // sweep moves the ones past due to OVERDUE this often.
  INVOICE_DUE_DAYS: z.coerce.number().positive().max(3650).default(14),
  INVOICE_OVERDUE_SWEEP_SECONDS: z.coerce.number().positive().max(86_400).default(3600),
  // Outbox delivery (issue 11): attempts, back-off, concurrency, the lost-job sweep.
  ...outboxEnv.shape,
  LOG_LEVEL: logLevelVar,
});

export type SettlementConfig = z.infer<typeof schema>;

export function loadSettlementConfig(
  env: Record<string, string | undefined> = process.env,
): SettlementConfig {
  return parseEnv('settlement subgraph', schema, env);
}
