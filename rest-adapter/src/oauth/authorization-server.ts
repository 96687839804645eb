import type { default as Provider, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { lensOperationList } from '@campaign/schema';
import { MCP_PATH } from '../mcp/mcp-route.js';
import { fetchClientMetadata, isMetadataDocumentUrl } from './client-id-metadata.js';
import type { PgStorage } from './pg-storage.js';

/** The OAuth endpoints of the adapter (DESIGN.md section 7). */
export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  /** Where the authorization endpoint sends the person: the consent page of one request. */
  consent: '/oauth/authorize/consent',
} as const;

export const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';
export const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/** A scope per lens operation: what a connection may call (issue 25, item 4). */
export const OPERATION_SCOPES: readonly string[] = lensOperationList.map((c) => c.name);

export interface AuthorizationServerSettings {
  /** The adapter's base URL: the issuer; `<base>/mcp` is the protected resource. */
  baseUrl: string;
  cookieSecret: string;
  accessTokenTtlSeconds: number;
  trustProxy: boolean;
}

const DAY = 24 * 3600;

/**
 * The OAuth 2.1 authorization server of MCP authorization, made of oidc-provider (certified;
 * version 8, which supports Node 20): response type `code` only, PKCE S256 required, dynamic
 * client registration, resource indicators with one resource (`<base>/mcp`), opaque access
 * tokens of at most an hour kept in PostgreSQL (so revocation is a delete every replica sees),
 * refresh tokens with rotation for clients that registered the refresh_token grant, revocation.
 * An account (the token's `sub`) is the id of the lens credential of kind `oauth` that consent
 * created; the consent page is ours (consent-page.ts).
 */
export async function createAuthorizationServer(
  settings: AuthorizationServerSettings,
  storage: PgStorage,
): Promise<Provider> {
  // Loaded on the first OAuth request, not at start (issue 27: about 8 MB of the adapter's idle
  // RSS, with Koa and its HTTP client, for a path most adapters never serve).
  const oidc = await import('oidc-provider');
  const resource = `${settings.baseUrl}${MCP_PATH}`;
  const configuration: Configuration = {
    adapter: storage.adapterFor(async (id) =>
      isMetadataDocumentUrl(id, settings.baseUrl) ? fetchClientMetadata(id) : undefined,
    ),
    discovery: { client_id_metadata_document_supported: true },
    clients: [],
    cookies: { keys: [settings.cookieSecret] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    // Known here too, so that a client may register with them (RFC 7591 `scope`).
    scopes: ['openid', ...OPERATION_SCOPES],
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
      end_session: '/oauth/end-session',
      userinfo: '/oauth/userinfo',
      introspection: '/oauth/introspect',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      pushed_authorization_request: '/oauth/par',
      backchannel_authentication: '/oauth/backchannel',
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          // One resource: a token for anything else is refused at issuance (RFC 8707 invalid_target).
          if (indicator !== resource) throw new oidc.errors.InvalidTarget();
          return {
            scope: OPERATION_SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: settings.accessTokenTtlSeconds,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    interactions: {
      url: (_ctx: KoaContextWithOIDC, interaction) => `${OAUTH_PATHS.consent}/${interaction.uid}`,
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => true,
    // Browser-based clients (the MCP Inspector) call the token and registration endpoints.
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Grant: 30 * DAY,
      Interaction: 3600,
      RefreshToken: 30 * DAY,
      Session: 3600,
    },
  };
  const provider = new oidc.default(settings.baseUrl, configuration);
  provider.proxy = settings.trustProxy;
  // A client that asks for no scope asks for every operation; the person picks on the page.
  provider.use(async (ctx, next) => {
    if (ctx.path === OAUTH_PATHS.authorization && ctx.method === 'GET' && !ctx.query.scope) {
      ctx.query = { ...ctx.query, scope: OPERATION_SCOPES.join(' ') };
    }
    await next();
  });
  return provider;
}

/** RFC 9728 Protected Resource Metadata of /mcp. */
export const protectedResourceMetadata = (baseUrl: string) => ({
  resource: `${baseUrl}${MCP_PATH}`,
  authorization_servers: [baseUrl],
  scopes_supported: OPERATION_SCOPES,
  bearer_methods_supported: ['header'],
  resource_name: 'Campaign platform lens (MCP)',
  resource_documentation: `${baseUrl}/docs`,
});
