import type Provider from 'oidc-provider';
import { bearerToken } from '@campaign/platform';
import {
  AUTHORIZATION_SERVER_METADATA,
  createAuthorizationServer,
  PROTECTED_RESOURCE_METADATA,
  type AuthorizationServerSettings,
} from './authorization-server.js';
import { PgStorage } from './pg-storage.js';

/** Where the lens key of each OAuth connection is kept (a model of the provider's storage). */
const CONNECTION_MODEL = 'LensConnection';

/** Lens's own credential prefixes: a bearer token with one of these is not an OAuth token. */
const LENS_KEY = /^(lk_live_|lmcp_|loauth_)/;

/**
 * MCP authorization as the /mcp route and the OAuth routes see it: the authorization server,
 * the resource's metadata URL for challenges, and the mapping from an OAuth access token to the
 * lens credential (kind `oauth`) that consent created, whose key the adapter sends lens in the
 * token's place. Lens then applies that credential's grant, cap, revocation, plan and
 * permissions exactly as for any other credential.
 */
export class McpAuthorization {
  private providerLoaded?: Promise<Provider>;
  readonly resource: string;
  private readonly connections;

  constructor(
    readonly settings: AuthorizationServerSettings,
    private readonly storage: PgStorage,
  ) {
    this.resource = `${settings.baseUrl}/mcp`;
    const Adapter = storage.adapterFor();
    this.connections = new Adapter(CONNECTION_MODEL);
  }

  static open(settings: AuthorizationServerSettings, databaseUrl: string): McpAuthorization {
    return new McpAuthorization(settings, new PgStorage(databaseUrl));
  }

  /** The authorization server, made (and oidc-provider loaded) on first use. */
  provider(): Promise<Provider> {
    return (this.providerLoaded ??= createAuthorizationServer(this.settings, this.storage));
  }

  /** RFC 9728: what a 401 on /mcp points to (`resource_metadata`). */
  get resourceMetadataUrl(): string {
    return `${this.settings.baseUrl}${PROTECTED_RESOURCE_METADATA}/mcp`;
  }

  get authorizationServerMetadataUrl(): string {
    return `${this.settings.baseUrl}${AUTHORIZATION_SERVER_METADATA}`;
  }

  /** Keeps a new connection's lens key under its credential id (the tokens' subject). */
  async remember(credentialId: string, lensKey: string): Promise<void> {
    await this.connections.upsert(credentialId, { lensKey }, 0);
  }

  /**
   * The Authorization header to send lens for this request: an OAuth access token that is live
   * (not expired, not revoked) and issued for this resource (RFC 8707 audience) becomes its
   * connection's lens key; anything else goes on unchanged, for lens to judge (an `lmcp_` token
   * works as before; an unknown token is refused there with the 401 of any unknown token).
   */
  async lensAuthorization(authorization: string | undefined): Promise<string | undefined> {
    const token = bearerToken(authorization);
    if (!token || LENS_KEY.test(token)) return authorization;
    const refused = 'Bearer refused-oauth-token';
    const found = await (await this.provider()).AccessToken.find(token).catch(() => undefined);
    if (!found || found.isExpired) return refused;
    const audiences = Array.isArray(found.aud) ? found.aud : [found.aud];
    if (!audiences.includes(this.resource)) return refused;
    const connection = await this.connections.find(found.accountId);
    const lensKey = connection?.['lensKey'];
    return typeof lensKey === 'string' ? `Bearer ${lensKey}` : refused;
  }

  close(): Promise<void> {
    return this.storage.close();
  }
}
