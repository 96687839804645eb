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

/** Unset: the explorer follows GATEWAY_INTROSPECTION (it reads the schema by introspection). */
const optionalBooleanVar = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));

/** Introspection and the explorer default to off in production: the schema is a map to attack. */
const schema = (production: boolean) =>
  z
    .object({
      GATEWAY_HOST: hostVar,
      GATEWAY_PORT: portVar(4000),
      /** The federation engine: Apollo's gateway, or Hive's on the same supergraph (issue 16). */
      GATEWAY_ENGINE: z.enum(['apollo', 'hive']).default('apollo'),
      /**
       * The Hive engine's query planner (issue 27): its own JavaScript one, or Hive Router's Rust
       * planner (`@graphql-hive/router-runtime`). Apollo's gateway has only its own.
       */
      GATEWAY_QUERY_PLANNER: z.enum(['javascript', 'rust']).default('javascript'),
      LENS_SUBGRAPH_URL: urlVar.default('http://127.0.0.1:4001/graphql'),
      SETTLEMENT_SUBGRAPH_URL: urlVar.default('http://127.0.0.1:4002/graphql'),
      GATEWAY_INTROSPECTION: booleanVar(!production),
      /** The GraphiQL page at GET /graphql for a browser (issue 15). */
      GATEWAY_EXPLORER: optionalBooleanVar,
      /**
       * `require`: a caller without a console's token (a JWT) may run only the trusted documents
       * of schema/trusted-documents.json (issue 27); `off` (default): any document.
       */
      GATEWAY_TRUSTED_DOCUMENTS: z.enum(['off', 'require']).default('off'),
      SUBGRAPH_SECRET: subgraphSecretVar,
      /** Only a caller with it (the REST adapter) chooses the client address sent to subgraphs. */
      PROXY_SECRET: proxySecretVar,
      ...graphqlLimitVars('GATEWAY', GATEWAY_LIMITS),
      LOG_LEVEL: logLevelVar,
    })
    .transform((config, ctx) => {
      if (config.GATEWAY_QUERY_PLANNER === 'rust' && config.GATEWAY_ENGINE !== 'hive') {
        ctx.addIssue({
          code: 'custom',
          path: ['GATEWAY_QUERY_PLANNER'],
          message: 'the Rust query planner runs on the Hive engine only (GATEWAY_ENGINE=hive)',
        });
        return z.NEVER;
      }
      const explorer = config.GATEWAY_EXPLORER ?? config.GATEWAY_INTROSPECTION;
      if (explorer && !config.GATEWAY_INTROSPECTION) {
        ctx.addIssue({
          code: 'custom',
          path: ['GATEWAY_EXPLORER'],
          message: 'the explorer needs GATEWAY_INTROSPECTION=true (it reads the schema that way)',
        });
        return z.NEVER;
      }
      return { ...config, GATEWAY_EXPLORER: explorer };
    });

export type GatewayConfig = z.infer<ReturnType<typeof schema>>;

export function loadGatewayConfig(
  env: Record<string, string | undefined> = process.env,
): GatewayConfig {
  return parseEnv('gateway', schema(env['NODE_ENV'] === 'production'), env);
}

/**
 * Each ApolloGateway otherwise starts Apollo's usage-data collection: an OpenTelemetry meter that
 * probes cloud metadata endpoints and exports to Apollo's servers every few minutes (a call to a
 * third party from an offline platform, and about 3 MB per process; issue 27). The library reads
 * only process.env's APOLLO_TELEMETRY_DISABLED, so the default is written there; an operator's
 * own value is kept. Its modules (the meter SDK, the OTLP metrics exporter, the cloud detectors)
 * are loaded only when that meter is made: patches/@apollo__gateway@2.14.4.patch, about 9 MB of
 * every gateway's idle RSS.
 */
export function noApolloUsageData(): void {
  process.env['APOLLO_TELEMETRY_DISABLED'] ??= 'true';
}
