import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { stack } from '../support/clients.js';
import { mcpUrl } from './mcp-client.js';

/**
 * What a hosted MCP client does to connect with OAuth (issue 25), step by step over real HTTP:
 * discovery from a 401, registration, the authorization request with PKCE, the code exchange.
 * The consent page is answered by a browser (oauth.test.ts) or by posting its form (consent()).
 */

export interface Discovered {
  resourceMetadataUrl: string;
  resource: string;
  scopesSupported: string[];
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  revocationEndpoint: string;
  metadata: Record<string, unknown>;
}

/** From a 401 on /mcp to the authorization server's endpoints, as RFC 9728 and 8414 say. */
export async function discover(): Promise<Discovered> {
  const refused = await fetch(mcpUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  if (refused.status !== 401) throw new Error(`expected a 401, got ${refused.status}`);
  const challenge = refused.headers.get('www-authenticate') ?? '';
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
  if (!resourceMetadataUrl) throw new Error(`no resource_metadata in ${challenge}`);
  const prm = (await (await fetch(resourceMetadataUrl)).json()) as {
    resource: string;
    authorization_servers: string[];
    scopes_supported: string[];
  };
  const issuer = prm.authorization_servers[0]!;
  const metadata = (await (
    await fetch(`${issuer}/.well-known/oauth-authorization-server`)
  ).json()) as Record<string, string>;
  return {
    resourceMetadataUrl,
    resource: prm.resource,
    scopesSupported: prm.scopes_supported,
    issuer,
    authorizationEndpoint: metadata['authorization_endpoint']!,
    tokenEndpoint: metadata['token_endpoint']!,
    registrationEndpoint: metadata['registration_endpoint']!,
    revocationEndpoint: metadata['revocation_endpoint']!,
    metadata,
  };
}

/** A loopback redirect URI that records what the authorization server sends back. */
export async function callbackServer(): Promise<{
  uri: string;
  next: () => Promise<URLSearchParams>;
  close: () => Promise<void>;
}> {
  const waiting: ((query: URLSearchParams) => void)[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this page.');
    waiting.shift()?.(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface Registered {
  client_id: string;
  client_name: string;
}

export async function register(
  found: Discovered,
  redirectUri: string,
  grantTypes = ['authorization_code', 'refresh_token'],
): Promise<Registered> {
  const response = await fetch(found.registrationEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Hosted Assistant (test)',
      redirect_uris: [redirectUri],
      grant_types: grantTypes,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  if (response.status !== 201) throw new Error(`registration: ${await response.text()}`);
  return (await response.json()) as Registered;
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
};

export function authorizationUrl(
  found: Discovered,
  client: Registered,
  redirectUri: string,
  challenge: string,
  options: { scope?: string[]; resource?: string; state?: string } = {},
): string {
  const url = new URL(found.authorizationEndpoint);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: options.resource ?? found.resource,
    state: options.state ?? randomBytes(8).toString('hex'),
    ...(options.scope ? { scope: options.scope.join(' ') } : {}),
  }).toString();
  return url.toString();
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  expires_in: number;
  scope?: string;
  token_type: string;
}

export async function tokenRequest(
  found: Discovered,
  params: Record<string, string>,
): Promise<{ status: number; body: Tokens & { error?: string } }> {
  const response = await fetch(found.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as Tokens & { error?: string } };
}

/** The token request of an authorization code, for the resource the server announced. */
export function exchangeCode(
  found: Discovered,
  client: Registered,
  redirectUri: string,
  code: string,
  verifier: string,
) {
  return tokenRequest(found, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: client.client_id,
    code_verifier: verifier,
    resource: found.resource,
  });
}

/** A tiny cookie jar: the authorization server's interaction cookies between redirects. */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  get header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * The person's part without a browser: follows the authorization request to the consent page
 * and posts its form (what the page's Approve/Deny buttons send); returns where the server sent
 * the person at the end (the client's redirect URI with a code or an error), or the page shown
 * again when the form was refused.
 */
export async function consent(
  authorizeUrl: string,
  form: { decision: 'approve' | 'deny'; credential?: string; operations?: string[]; cap?: number },
): Promise<{ redirect?: URL; page?: { status: number; html: string } }> {
  const jar = new Jar();
  let url = authorizeUrl;
  let init: RequestInit = {};
  for (let hop = 0; hop < 8; hop += 1) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header },
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== new URL(stack().rest).origin) return { redirect: next };
      url = next.toString();
      init = {};
      continue;
    }
    const html = await response.text();
    if (init.method === 'POST') return { page: { status: response.status, html } };
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) return { page: { status: response.status, html } };
    const body = new URLSearchParams({ decision: form.decision });
    if (form.credential) body.set('credential', form.credential);
    for (const name of form.operations ?? []) body.append('operation', name);
    if (form.cap) body.set('creditsCap', String(form.cap));
    url = new URL(action, url).toString();
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    };
  }
  throw new Error('too many redirects');
}

/** Everything up to a token, the consent answered by posting its form. */
export async function connectWithOAuth(
  credential: string,
  options: { operations: string[]; cap?: number },
): Promise<{ found: Discovered; client: Registered; tokens: Tokens }> {
  const found = await discover();
  const redirectUri = 'http://127.0.0.1:9/callback';
  const client = await register(found, redirectUri);
  const { verifier, challenge } = pkce();
  const { redirect } = await consent(
    authorizationUrl(found, client, redirectUri, challenge, { scope: options.operations }),
    {
      decision: 'approve',
      credential,
      operations: options.operations,
      ...(options.cap ? { cap: options.cap } : {}),
    },
  );
  const code = redirect?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${redirect?.toString()}`);
  const { body } = await exchangeCode(found, client, redirectUri, code, verifier);
  return { found, client, tokens: body };
}

/** The MCP SDK's client with an OAuth access token, as a host sends it. */
export async function mcpWithToken(accessToken: string): Promise<Client> {
  const client = new Client({ name: 'hosted-assistant-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl(), {
      requestInit: { headers: { authorization: `Bearer ${accessToken}` } },
    }),
  );
  return client;
}

/**
 * The status of a bare tools/list on /mcp with this token (no SDK: the HTTP answer itself), at
 * the shared stack's adapter or at `base` (another replica).
 */
export async function mcpStatus(
  accessToken: string,
  base = stack().rest,
): Promise<{ status: number; challenge: string }> {
  const response = await fetch(mcpUrl(base), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${accessToken}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get('www-authenticate') ?? '' };
}
