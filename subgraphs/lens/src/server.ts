import DataLoader from 'dataloader';
import { createLogger, createServiceApp, listen, type RunningServer } from '@campaign/platform';
import { mountGraphQL } from '@campaign/platform/graphql-server';
import { AccountObservationService } from './account/account-observation.service.js';
import type { LensConfig } from './config.js';
import type { LensContext, LensServices } from './context.js';
import { OperationService } from './operation/operation.service.js';
import { initLensOrm } from './orm.js';
import { buildLensSchema } from './schema.js';
import { TenantService } from './tenant/tenant.service.js';
import { HttpSocialUpstream } from './upstream/upstream.http.js';

export async function startLensSubgraph(config: LensConfig): Promise<RunningServer> {
  const logger = createLogger('lens', config.LOG_LEVEL);
  const orm = await initLensOrm(config.LENS_DATABASE_URL);
  const upstream = new HttpSocialUpstream({
    baseUrl: config.LENS_UPSTREAM_URL,
    token: config.LENS_UPSTREAM_TOKEN,
    timeoutMs: config.LENS_UPSTREAM_TIMEOUT_MS,
  });
  const services: LensServices = { operations: new OperationService(upstream, logger) };
  const tenants = new TenantService();
  const observations = new AccountObservationService();
  const { schema } = await buildLensSchema();
  const app = createServiceApp({
    logger,
    readiness: async () => {
      await orm.em.fork().execute('select 1');
    },
  });
  await mountGraphQL<LensContext>({
    app,
    schema,
    introspection: config.LENS_INTROSPECTION,
    context: async (request) => {
      const em = orm.em.fork();
      let tenant: ReturnType<LensContext['tenant']> | undefined;
      return {
        em,
        requestId: request.id,
        services,
        tenant: () => (tenant ??= tenants.authenticate(em, request.headers.authorization)),
        accountLoader: new DataLoader((ids: readonly string[]) => observations.findMany(em, ids)),
      };
    },
  });
  const running = await listen(app, config.LENS_HOST, config.LENS_PORT);
  logger.info({ url: `${running.url}/graphql` }, 'lens subgraph listening');
  return {
    ...running,
    close: async () => {
      await running.close();
      await orm.close();
    },
  };
}
