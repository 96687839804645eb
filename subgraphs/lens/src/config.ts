import { z } from 'zod';
import { hostVar, logLevelVar, parseEnv, portVar, urlVar, booleanVar } from '@campaign/platform';

const schema = z.object({
  LENS_HOST: hostVar,
  LENS_PORT: portVar(4001),
  LENS_DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  LENS_UPSTREAM_URL: urlVar,
  LENS_UPSTREAM_TOKEN: z.string().optional(),
  LENS_UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  LENS_SYNC_BUDGET_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  LENS_CURSOR_SECRET: z.string().min(16).default('development-cursor-secret-change-me'),
  LENS_INTROSPECTION: booleanVar(true),
  LOG_LEVEL: logLevelVar,
});

export type LensConfig = z.infer<typeof schema>;

export function loadLensConfig(env: Record<string, string | undefined> = process.env): LensConfig {
  return parseEnv('lens subgraph', schema, env);
}
