import { z } from 'zod';
import { loadGatewayConfig, type GatewayConfig } from '@campaign/gateway/embedded';
import {
  databaseUrlVar,
  hostVar,
  oauthCookieSecretVar,
  logLevelVar,
  parseEnv,
  portVar,
  trustProxyVar,
  urlVar,
} from '@campaign/platform';

const schema = z.object({
  REST_HOST: hostVar,
  REST_PORT: portVar(8080),
  /** Trust X-Forwarded-For from a load balancer in front (client IPs for the public rate limit). */
  REST_TRUST_PROXY: trustProxyVar,
  LOG_LEVEL: logLevelVar,
  /**
   * The adapter's own base URL as clients reach it: the OAuth issuer, and `<base>/mcp` the
   * protected resource (DESIGN.md section 7). Default: http://127.0.0.1:<REST_PORT>.
   */
  REST_PUBLIC_URL: urlVar.optional(),
  /** The lens database, where the OAuth authorization server keeps its state; unset: no OAuth. */
  LENS_DATABASE_URL: databaseUrlVar.optional(),
  OAUTH_COOKIE_SECRET: oauthCookieSecretVar,
  /** How long an OAuth access token lives (at most an hour: DESIGN.md section 7). */
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(3600),
});

/**
 * The adapter's settings, and those of the gateway engine it runs in its own process (issue 27):
 * the standalone gateway's variables (GATEWAY_ENGINE, LENS_SUBGRAPH_URL, SETTLEMENT_SUBGRAPH_URL,
 * SUBGRAPH_SECRET, GATEWAY_MAX_*), parsed by the gateway's own schema.
 */
export type RestAdapterConfig = z.infer<typeof schema> & { gateway: GatewayConfig };

/** The base URL clients use (REST_PUBLIC_URL, else the loopback address and port). */
export const publicBaseUrl = (config: RestAdapterConfig) =>
  (config.REST_PUBLIC_URL ?? `http://127.0.0.1:${config.REST_PORT}`).replace(/\/+$/, '');

export function loadRestAdapterConfig(
  env: Record<string, string | undefined> = process.env,
): RestAdapterConfig {
  return { ...parseEnv('rest adapter', schema, env), gateway: loadGatewayConfig(env) };
}
