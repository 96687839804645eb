import { createHash, randomBytes } from 'node:crypto';
import type { CredentialKind } from './api-key.entity.js';

/**
 * REST keys, tool-protocol (MCP) tokens and OAuth connections' keys are told apart by prefix,
 * before any look-up. An OAuth connection's key never leaves the REST adapter: clients hold
 * OAuth access tokens, which the adapter maps to it (docs/mcp.md).
 */
export const KEY_PREFIX: Record<CredentialKind, string> = {
  rest: 'lk_live_',
  mcp: 'lmcp_',
  oauth: 'loauth_',
};

export function generateKey(kind: CredentialKind): string {
  return KEY_PREFIX[kind] + randomBytes(24).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function kindOfKey(key: string): CredentialKind | null {
  if (key.startsWith(KEY_PREFIX.rest)) return 'rest';
  if (key.startsWith(KEY_PREFIX.mcp)) return 'mcp';
  if (key.startsWith(KEY_PREFIX.oauth)) return 'oauth';
  return null;
}
