import { z } from 'zod';
import {
  booleanVar,
  GATEWAY_LIMITS,
  graphqlLimitVars,
  hostVar,
  logLevelVar,
  parseEnv,
  portVar,
  proxySecretVar,
  subgraphSecretVar,
  urlVar,
} from '@campaign/platform';

const schema = z.object({
  GATEWAY_HOST: hostVar,
  GATEWAY_PORT: portVar(4000),
  LENS_SUBGRAPH_URL: urlVar.default('http://127.0.0.1:4001/graphql'),
  SETTLEMENT_SUBGRAPH_URL: urlVar.default('http://127.0.0.1:4002/graphql'),
  GATEWAY_INTROSPECTION: booleanVar(true),
  SUBGRAPH_SECRET: subgraphSecretVar,
  /** Only a caller with it (the REST adapter) chooses the client address sent to subgraphs. */
  PROXY_SECRET: proxySecretVar,
  ...graphqlLimitVars('GATEWAY', GATEWAY_LIMITS),
  LOG_LEVEL: logLevelVar,
});

export type GatewayConfig = z.infer<typeof schema>;

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  return parseEnv('gateway', schema, env);
}
