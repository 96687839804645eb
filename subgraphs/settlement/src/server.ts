import {
  createLogger,
  createServiceApp,
  graphqlLimits,
  listen,
  type RunningServer,
} from '@campaign/platform';
import { mountGraphQL } from '@campaign/platform';
import { verifyAuthorization, type Principal } from './auth/principal.js';
import type { SettlementConfig } from './config.js';
import type { SettlementContext } from './context.js';
import { createLoaders } from './loaders.js';
import { initSettlementOrm } from './orm.js';
import { buildSettlementSchema } from './schema.js';
import { createSettlementServices } from './services.js';

export async function startSettlementSubgraph(config: SettlementConfig): Promise<RunningServer> {
  const logger = createLogger('settlement', config.LOG_LEVEL);
  const orm = await initSettlementOrm(config.SETTLEMENT_DATABASE_URL);
  const jwt = { secret: config.AUTH_JWT_SECRET, issuer: config.AUTH_JWT_ISSUER };
  const { schema } = await buildSettlementSchema();
  const services = createSettlementServices();
  const app = createServiceApp({
    logger,
    readiness: async () => {
      await orm.em.fork().execute('select 1');
    },
  });
  await mountGraphQL<SettlementContext>({
    app,
    schema,
    introspection: config.SETTLEMENT_INTROSPECTION,
    limits: graphqlLimits('SETTLEMENT', config),
    subgraphSecret: config.SUBGRAPH_SECRET,
    context: async (request) => {
      const em = orm.em.fork();
      let principal: Promise<Principal> | undefined;
      return {
        em,
        requestId: request.id,
        services,
        principal: () => (principal ??= verifyAuthorization(jwt, request.headers.authorization)),
        loaders: createLoaders(em),
      };
    },
  });
  const running = await listen(app, config.SETTLEMENT_HOST, config.SETTLEMENT_PORT);
  logger.info({ url: `${running.url}/graphql` }, 'settlement subgraph listening');
  return {
    ...running,
    close: async () => {
      await running.close();
      await orm.close();
    },
  };
}
