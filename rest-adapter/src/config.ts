import { z } from 'zod';
import {
  hostVar,
  logLevelVar,
  parseEnv,
  portVar,
  proxySecretVar,
  trustProxyVar,
  urlVar,
} from '@campaign/platform';

const schema = z.object({
  REST_HOST: hostVar,
  REST_PORT: portVar(8080),
  GATEWAY_URL: urlVar.default('http://127.0.0.1:4000/graphql'),
  /** Trust X-Forwarded-For from a load balancer in front (client IPs for the public rate limit). */
  REST_TRUST_PROXY: trustProxyVar,
  /** Sent to the gateway so that it believes the client address this adapter forwards. */
  PROXY_SECRET: proxySecretVar,
  LOG_LEVEL: logLevelVar,
});

export type RestAdapterConfig = z.infer<typeof schema>;

export function loadRestAdapterConfig(
  env: Record<string, string | undefined> = process.env,
): RestAdapterConfig {
  return parseEnv('rest adapter', schema, env);
}
