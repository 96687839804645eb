import { randomBytes } from 'node:crypto';
import { DEVELOPMENT_SECRETS } from '@campaign/platform';

/**
 * How the bench runs the services (issue 27): as production runs them (docs/operations.md,
 * "Production configuration": NODE_ENV=production, secrets of this deployment, a metrics token),
 * or as a development machine does (NODE_ENV unset, the published development secrets) to compare
 * with. NODE_ENV=production also selects libraries' production builds (graphql-js without its
 * development-only checks, for one), so the production mode is what a deployment pays per request.
 */
export const NODE_ENVS = ['production', 'development'] as const;
export type NodeEnvMode = (typeof NODE_ENVS)[number];

export interface BenchMode {
  nodeEnv: NodeEnvMode;
  /** Added to every service's environment (and NODE_ENV to the reference's). */
  serviceEnv: Record<string, string>;
  /** What the bench signs the admin token with and sends the subgraphs itself. */
  jwtSecret: string;
  subgraphSecret: string;
  /** The stack's TAX_INVOICE_WEBHOOK_SECRET (its simulator and settlement share it). */
  webhookSecret?: string;
}

/** Fresh for each run: 48 random bytes, as docs/operations.md tells an operator to generate. */
const fresh = () => randomBytes(48).toString('base64url');

export function benchMode(nodeEnv: string): BenchMode {
  if (nodeEnv === 'development')
    return {
      nodeEnv,
      serviceEnv: {},
      jwtSecret: DEVELOPMENT_SECRETS.jwt,
      subgraphSecret: DEVELOPMENT_SECRETS.subgraph,
    };
  if (nodeEnv !== 'production')
    throw new Error(`--node-env: production or development, not ${JSON.stringify(nodeEnv)}`);
  const secrets = {
    AUTH_JWT_SECRET: fresh(),
    SUBGRAPH_SECRET: fresh(),
    PROXY_SECRET: fresh(),
    LENS_CURSOR_SECRET: fresh(),
    OAUTH_COOKIE_SECRET: fresh(),
    // Production closes /metrics without it: the metrics stay on, as a scraped deployment's.
    METRICS_TOKEN: fresh(),
  };
  return {
    nodeEnv,
    serviceEnv: { NODE_ENV: 'production', ...secrets },
    jwtSecret: secrets.AUTH_JWT_SECRET,
    subgraphSecret: secrets.SUBGRAPH_SECRET,
    webhookSecret: fresh(),
  };
}
