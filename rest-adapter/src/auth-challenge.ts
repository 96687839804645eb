import type { ErrorBody } from '@campaign/schema';

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 9110 11.6.1), so that a client learns how to
 * authenticate from the refusal itself. Bearer-token paths (REST and /mcp) answer RFC 6750's
 * challenge: the realm always, `error="invalid_token"` when a token was sent (none was sent:
 * no error code, section 3.1). The tax-invoice webhook is not a bearer path: its refusal names
 * its own scheme, the X-Signature header's HMAC.
 */

/** The protection space of every bearer-token path (DESIGN.md section 7). */
export const REALM = 'campaign-platform';

export interface BearerChallenge {
  /** An Authorization header came with the request (and was refused). */
  tokenSent: boolean;
  /** MCP authorization's Protected Resource Metadata URL, once /mcp has OAuth (RFC 9728). */
  resourceMetadata?: string;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

const challenge = (scheme: string, params: [string, string | undefined][]) =>
  `${scheme} ${params
    .filter((param): param is [string, string] => param[1] !== undefined)
    .map(([name, value]) => `${name}=${quoted(value)}`)
    .join(', ')}`;

export function bearerChallenge(options: BearerChallenge): string {
  return challenge('Bearer', [
    ['realm', REALM],
    ['error', options.tokenSent ? 'invalid_token' : undefined],
    ['resource_metadata', options.resourceMetadata],
  ]);
}

/** The webhook's scheme: an HMAC-SHA256 signature in the X-Signature header (DESIGN.md 5). */
export const WEBHOOK_CHALLENGE = challenge('Signature', [
  ['realm', 'tax-invoice-webhook'],
  ['header', 'X-Signature'],
  ['algorithm', 'hmac-sha256'],
]);

/** Whether a request carried a credential at all (any scheme): RFC 6750's "token was sent". */
export const tokenSent = (authorization: string | undefined) => Boolean(authorization?.trim());

/** The challenge of a REST 401, by the refusal's catalogue code. */
export function challengeOf(error: ErrorBody, authorization: string | undefined): string {
  return error.code === 'WEBHOOK_SIGNATURE_INVALID'
    ? WEBHOOK_CHALLENGE
    : bearerChallenge({ tokenSent: tokenSent(authorization) });
}
