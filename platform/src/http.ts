import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { errorBody } from '@campaign/schema';
import { clientErrorHandler, type ClientErrorOptions } from './client-errors.js';
import type { Logger } from './logger.js';
import { installMetrics } from './metrics.js';
import { tracingEnabled } from './telemetry.js';
import { routeServerSpan } from './trace-context.js';
import { RequestLogController } from './request-log.js';
import type { RouteMethods } from './route-methods.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Seconds a client waits before retrying after a 503 that named no time of its own: every 503 of
 * every service says when to come back (RFC 9110 10.2.3), so no client retries in a tight loop.
 */
export const SERVICE_RETRY_AFTER_SECONDS = 2;

export interface ServiceAppOptions {
  logger: Logger;
  /** Resolves when every dependency (database, upstream service) is reachable; throws otherwise. */
  readiness: () => Promise<void>;
  bodyLimit?: number;
  /** Take the client address from X-Forwarded-For (behind a load balancer): see trustProxyVar. */
  trustProxy?: boolean | string[];
  /** How requests Node's HTTP parser refuses are answered (client-errors.ts). */
  clientErrors?: ClientErrorOptions;
  /** Filled with every route the app registers, its probes included (route-methods.ts). */
  routeMethods?: RouteMethods;
}

/**
 * A fastify app with the two probes every service has and a request id that is taken from the
 * caller (so one id follows a request adapter → gateway → subgraph) or made here.
 */
export function createServiceApp(options: ServiceAppOptions): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    requestIdHeader: REQUEST_ID_HEADER,
    genReqId: () => randomUUID(),
    // One line per request for people, none for probes (request-log.ts).
    logController: new RequestLogController(),
    clientErrorHandler: clientErrorHandler(options.clientErrors),
    // A URL the router cannot take (a path parameter over its length limit, a bad escape): the
    // caller's to fix, in the catalogue's shape, never fastify's own body echoing the path.
    frameworkErrors: (_error, _request, reply) =>
      void (reply as FastifyReply).code(400).send({
        success: false,
        error: errorBody(
          'INVALID_REQUEST',
          'The URL cannot be read: a path part is malformed or too long.',
        ),
      }),
  });
  const routeMethods = options.routeMethods;
  if (routeMethods) app.addHook('onRoute', (route) => routeMethods.add(route.url, route.method));
  // A callback hook: no promise and microtask per response for a synchronous step (issue 27).
  app.addHook('onSend', (request, reply, _payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) {
      reply.header('retry-after', String(SERVICE_RETRY_AFTER_SECONDS));
    }
    done();
  });
  // The request histogram and GET /metrics (issue 26), on every service.
  installMetrics(app);
  // A callback hook, not an async one: no promise per request for a synchronous step.
  if (tracingEnabled())
    app.addHook('onRequest', (request, _reply, done) => {
      routeServerSpan(request.routeOptions.url);
      done();
    });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await options.readiness();
      return { status: 'ready' };
    } catch (error) {
      return reply.code(503).send({
        status: 'not ready',
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  });
  return app;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(
  app: FastifyInstance,
  host: string,
  port: number,
): Promise<RunningServer> {
  await app.listen({ host, port });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${boundPort}`,
    port: boundPort,
    close: () => app.close(),
  };
}
