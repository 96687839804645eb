import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import {
  AUTHORIZATION_SERVER_METADATA,
  OAUTH_PATHS,
  PROTECTED_RESOURCE_METADATA,
  protectedResourceMetadata,
} from './authorization-server.js';
import type { McpAuthorization } from './mcp-authorization.js';
import { handleConsent, showConsent } from './consent.js';
import type { GatewayClient } from '../gateway-client.js';

/** Hands a request to oidc-provider (a Koa app) as it came; it reads the body itself. */
function toProvider(auth: McpAuthorization, url?: string) {
  let callback: Promise<ReturnType<Provider['callback']>> | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    if (url) request.raw.url = url;
    const handle = await (callback ??= auth.provider().then((provider) => provider.callback()));
    await handle(request.raw, reply.raw);
  };
}

/**
 * The OAuth side of MCP authorization on the adapter (DESIGN.md section 7): the resource's
 * metadata (RFC 9728), the authorization server's (RFC 8414) and its endpoints, and the consent
 * page. Everything under /oauth/ but the consent page is oidc-provider's.
 */
export async function registerOAuthRoutes(
  app: FastifyInstance,
  auth: McpAuthorization,
  gateway: GatewayClient,
): Promise<void> {
  const resourceMetadata = protectedResourceMetadata(auth.settings.baseUrl);
  for (const path of [PROTECTED_RESOURCE_METADATA, `${PROTECTED_RESOURCE_METADATA}/mcp`]) {
    app.get(path, async (_request, reply) =>
      reply.header('access-control-allow-origin', '*').send(resourceMetadata),
    );
  }
  await app.register(async (scope) => {
    // The provider reads the bodies of its own endpoints.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.get(AUTHORIZATION_SERVER_METADATA, toProvider(auth, '/.well-known/openid-configuration'));
    scope.get('/.well-known/openid-configuration', toProvider(auth));
    scope.all('/oauth/*', toProvider(auth));
  });
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, new URLSearchParams(String(body))),
    );
    scope.get(`${OAUTH_PATHS.consent}/:uid`, (request, reply) => showConsent(auth, request, reply));
    scope.post(`${OAUTH_PATHS.consent}/:uid`, (request, reply) =>
      handleConsent(auth, gateway, request, reply),
    );
  });
}
