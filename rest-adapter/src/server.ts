import {
  createLogger,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  createServiceApp,
  listen,
  RouteMethods,
  type RunningServer,
} from '@campaign/platform';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { publicBaseUrl, type RestAdapterConfig } from './config.js';
import { registerReferencePage } from './docs-page.js';
import { httpError, httpErrorOf } from './errors.js';
import { embedGateway } from '@campaign/gateway/embedded';
import { loadTrustedDocuments, readSupergraph } from '@campaign/schema';
import { GatewayClient } from './gateway-client.js';
import { MCP_PATH, mcpMethodNotAllowed, registerMcpRoutes } from './mcp/mcp-route.js';
import { McpAuthorization } from './oauth/mcp-authorization.js';
import { registerOAuthRoutes } from './oauth/oauth-routes.js';
import { lensDocument } from './openapi.js';
import { documentedRoutes } from './openapi-settlement.js';
import { settlementDocument, withDocumentedBodies } from './openapi-settlement-served.js';
import { bodyErrorOf, INVALID_JSON, methodGuard, NOT_JSON, sendError } from './replies.js';
import {
  addSecurityHeaders,
  repeatedHeaderError,
  SECURITY_HEADERS,
  unsafeTextError,
} from './request-guards.js';
import { respondTo, type Route } from './route.js';
import { lensRoutes } from './routes/lens.routes.js';
import { servedDocument } from './served-servers.js';

const KEYED_PATHS = /^\/api\/(admin|partner)\//;

/**
 * The Idempotency-Key of an admin or partner path, forwarded as it came: the settlement subgraph
 * keeps the keys and checks them, for REST and GraphQL alike (issue 23 item 5). Lens paths take
 * their own required key as an argument of the operation (lens.routes.ts).
 */
function keyOf(keyed: boolean, request: FastifyRequest): string | undefined {
  if (!keyed) return undefined;
  const key = request.headers[IDEMPOTENCY_KEY_HEADER];
  return typeof key === 'string' ? key : undefined;
}
/** Lens first, then every documented route in the order the settlement document lists them. */
export const routes: Route<never>[] = withDocumentedBodies([...lensRoutes, ...documentedRoutes]);

export async function startRestAdapter(config: RestAdapterConfig): Promise<RunningServer> {
  const logger = createLogger('rest-adapter', config.LOG_LEVEL);
  // The gateway engine in this process (issue 27), on the standalone gateway's settings.
  const manifest = loadTrustedDocuments(await readSupergraph());
  const documents = manifest.operations.map((operation) => operation.body);
  const embedded = await embedGateway(config.gateway, logger, documents);
  const gateway = new GatewayClient(embedded, manifest);
  const routeMethods = new RouteMethods();
  const app = createServiceApp({
    logger,
    trustProxy: config.REST_TRUST_PROXY,
    routeMethods,
    clientErrors: { headers: SECURITY_HEADERS, allowOf: (path) => routeMethods.allowOf(path) },
    readiness: () => embedded.ready(),
  });
  app.addHook('onClose', () => gateway.close());
  // Body problems are the caller's to fix: always a 400 in the catalogue's shape.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.statusCode && error.statusCode < 500)
      return sendError(reply, bodyErrorOf(error, request));
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      reply,
      httpError(
        'INTERNAL_ERROR',
        'An unexpected error occurred; it was logged with the request id.',
      ),
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(
      reply,
      httpError('NOT_FOUND', `No such path: ${request.method} ${request.url.split('?')[0]}.`),
    ),
  );
  app.addHook('onSend', addSecurityHeaders);
  // Before the body is read or any credential is looked at: the method, then the headers
  // (DESIGN.md L2: the request's shape first). The hooks take fastify's callback, not a promise:
  // they are synchronous, and an async hook costs a promise and a microtask per request (issue
  // 27). A hook that answers does not call `done`: the reply ends the request's hooks.
  app.addHook('onRequest', methodGuard(routeMethods, new Map([[MCP_PATH, mcpMethodNotAllowed]])));
  app.addHook('onRequest', (request, reply, done) => {
    const repeated = repeatedHeaderError(request);
    if (repeated) return void sendError(reply, repeated);
    done();
  });
  // Every /api/* path: the parsed body, query and path parameters, before the route runs.
  app.addHook('preValidation', (request, reply, done) => {
    const unsafe = request.url.startsWith('/api/') ? unsafeTextError(request) : null;
    if (unsafe) return void sendError(reply, unsafe);
    done();
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch (error) {
      done(Object.assign(error as Error, { statusCode: 400, code: INVALID_JSON }), undefined);
    }
  });
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(
      Object.assign(new Error('send the body as application/json'), {
        statusCode: 415,
        code: NOT_JSON,
      }),
      undefined,
    ),
  );

  // Served with the origin they were fetched from as their server (served-servers.ts); the
  // answer depends on the forwarded headers when a proxy is trusted.
  const sendDocument = (request: FastifyRequest, reply: FastifyReply, document: object) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('vary', 'x-forwarded-host, x-forwarded-proto')
      .send(servedDocument(document, request));
  app.get('/api/lens/v1/openapi.json', async (request, reply) =>
    sendDocument(request, reply, lensDocument),
  );
  app.get('/api/openapi.json', async (request, reply) =>
    sendDocument(request, reply, settlementDocument()),
  );
  registerReferencePage(app);
  const mount = (scope: typeof app, route: Route<never>) => {
    // Whether the row forwards its Idempotency-Key: known from its path once, not per request.
    const keyed = KEYED_PATHS.test(route.path);
    scope.route({
      method: route.method,
      url: route.path,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const invalid = route.validateBody?.(request.body);
        if (invalid) return sendError(reply, invalid);
        const result = await gateway.execute(route.document, route.variables(request), {
          authorization: request.headers.authorization,
          requestId: request.id,
          clientIp: request.ip,
          idempotencyKey: keyOf(keyed, request),
        });
        if (result.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
        if (result.errors?.length) {
          const mapped = httpErrorOf(result.errors[0]!);
          if (mapped.status >= 500)
            request.log.error({ errors: result.errors }, 'operation failed');
          return sendError(reply, mapped);
        }
        const response = respondTo(route, result.data, request);
        return reply
          .code(response.status)
          .headers(response.headers ?? {})
          .send(response.body);
      },
    });
  };
  for (const route of routes) if (!route.rawBody) mount(app, route);
  // Raw-body routes in a scope of their own, whose one parser keeps the text as it came (the
  // JSON parser above would refuse a malformed body before its signature is checked).
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    for (const route of routes) if (route.rawBody) mount(scope, route);
  });
  // Lens over the tool protocol (issue 13): the same gateway client, one operation per call.
  // MCP authorization (issue 25) when the adapter can reach the lens database for its state.
  const auth = config.LENS_DATABASE_URL
    ? McpAuthorization.open(
        {
          baseUrl: publicBaseUrl(config),
          cookieSecret: config.OAUTH_COOKIE_SECRET,
          accessTokenTtlSeconds: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
          trustProxy: config.REST_TRUST_PROXY !== false,
        },
        config.LENS_DATABASE_URL,
      )
    : undefined;
  if (auth) {
    app.addHook('onClose', () => auth.close());
    await registerOAuthRoutes(app, auth, gateway);
  }
  await registerMcpRoutes(app, gateway, auth);
  const running = await listen(app, config.REST_HOST, config.REST_PORT);
  logger.info({ url: running.url }, 'rest adapter listening');
  return running;
}
