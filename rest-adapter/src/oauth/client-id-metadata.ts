import type { AdapterPayload } from 'oidc-provider';

/**
 * Client ID metadata documents (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-
 * metadata-document): a client whose `client_id` is an HTTPS URL needs no registration; its
 * metadata is the JSON document at that URL. oidc-provider 8 has no such feature, so the
 * storage answers a look-up of an unknown client id that is such a URL with the document, and
 * oidc-provider validates it as it validates any client's metadata.
 */

const LIMIT_BYTES = 16 * 1024;
const TIMEOUT_MS = 5000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether `id` may name a metadata document: https with a path, no credentials or fragment;
 * http only on loopback and only for an issuer on loopback (development and tests).
 */
export function isMetadataDocumentUrl(id: string, issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(id);
  } catch {
    return false;
  }
  if (url.username || url.password || url.hash || url.pathname === '/') return false;
  if (url.protocol === 'https:') return true;
  const devIssuer = LOOPBACK.has(new URL(issuer).hostname);
  return url.protocol === 'http:' && devIssuer && LOOPBACK.has(url.hostname);
}

/** The client's metadata from its document, or undefined when it cannot serve as one. */
export async function fetchClientMetadata(id: string): Promise<AdapterPayload | undefined> {
  const response = await fetch(id, {
    redirect: 'error',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  }).catch(() => undefined);
  if (!response?.ok) return undefined;
  if (Number(response.headers.get('content-length') ?? 0) > LIMIT_BYTES) {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  if (text.length > LIMIT_BYTES) return undefined;
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  // The document must name itself; a shared secret has no place in a public document.
  if (document['client_id'] !== id || 'client_secret' in document) return undefined;
  const method = document['token_endpoint_auth_method'] ?? 'none';
  if (method !== 'none') return undefined;
  return { ...document, client_id: id, token_endpoint_auth_method: 'none' } as AdapterPayload;
}
