import { hash, randomBytes } from 'node:crypto';
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

/**
 * The key's SHA-256 (what is stored), on every request: the one-shot `hash` (Node 20.12) makes
 * no Hash object, about a third of `createHash(...).update(...).digest(...)`'s time (issue 27).
 */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function kindOfKey(key: string): CredentialKind | null {
  if (key.startsWith(KEY_PREFIX.rest)) return 'rest';
  if (key.startsWith(KEY_PREFIX.mcp)) return 'mcp';
  if (key.startsWith(KEY_PREFIX.oauth)) return 'oauth';
  return null;
}
