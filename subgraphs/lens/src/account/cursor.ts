import { createHmac, timingSafeEqual } from 'node:crypto';
import { PlatformError } from '@campaign/schema';
import { LENS_LIMITS } from '@campaign/schema';
import type { AccountRef } from '../upstream/upstream.port.js';

/** Lens spec section 8: a cursor is at most this many characters. */
const MAX_CURSOR_LENGTH = LENS_LIMITS.cursor.max;

const VERSION = 'c1';
const TENANT_TAG_BYTES = 16;

/** What a cursor is bound to besides its tenant (DESIGN.md L9). */
export interface CursorBinding {
  operation: string;
  account: AccountRef;
}

/** An opened (authentic, same operation and account) cursor; its tenant is checked separately. */
export interface OpenedCursor {
  pageToken: string;
  tenantTag: string;
}

interface Payload {
  /** operation name */
  o: string;
  /** account key, see `accountKey` */
  a: string;
  /** tenant tag: a keyed hash of the tenant id (the id itself is never shown) */
  t: string;
  /** the upstream's own page token */
  p: string;
}

/** Handles are case-insensitive on the platform; an id is its digits. */
export function accountKey(ref: AccountRef): string {
  return 'handle' in ref ? `h:${ref.handle.toLowerCase()}` : `i:${ref.accountId}`;
}

const invalid = (why: string) =>
  new PlatformError('INVALID_CURSOR', `cursor: ${why}; send a nextCursor this API returned.`);

/**
 * Paging cursors: `c1.<payload>.<mac>`, base64url JSON of the operation, account, tenant tag and
 * the upstream page token, signed with HMAC-SHA256 under LENS_CURSOR_SECRET. Opening one checks
 * the signature, operation and account without knowing the tenant (so a bad cursor is a 400
 * before anything is reserved); `checkTenant` then checks the tenant once it is known.
 */
export class CursorCodec {
  private readonly macKey: Buffer;
  private readonly tenantKey: Buffer;

  constructor(secret: string) {
    this.macKey = createHmac('sha256', secret).update('lens-cursor-mac').digest();
    this.tenantKey = createHmac('sha256', secret).update('lens-cursor-tenant').digest();
  }

  issue(binding: CursorBinding & { tenantId: string }, pageToken: string): string {
    const payload: Payload = {
      o: binding.operation,
      a: accountKey(binding.account),
      t: this.tenantTag(binding.tenantId),
      p: pageToken,
    };
    const body = `${VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const cursor = `${body}.${this.mac(body).toString('base64url')}`;
    if (cursor.length > MAX_CURSOR_LENGTH) {
      throw new Error(`upstream page token too long for a cursor (${cursor.length} characters)`);
    }
    return cursor;
  }

  /** Throws INVALID_CURSOR unless the cursor is ours, unchanged, and for this operation and account. */
  open(cursor: string, binding: CursorBinding): OpenedCursor {
    if (cursor.length > MAX_CURSOR_LENGTH) throw invalid('too long');
    const parts = cursor.split('.');
    if (parts.length !== 3 || parts[0] !== VERSION) throw invalid('not a cursor of this API');
    const [version, encoded, signature] = parts as [string, string, string];
    const expected = this.mac(`${version}.${encoded}`);
    const given = Buffer.from(signature, 'base64url');
    if (
      given.length !== expected.length ||
      given.toString('base64url') !== signature ||
      !timingSafeEqual(given, expected)
    ) {
      throw invalid('signature does not match (tampered or not issued here)');
    }
    const payload = parsePayload(encoded);
    if (!payload) throw invalid('malformed');
    if (payload.o !== binding.operation)
      throw invalid(`issued for ${payload.o}, not this operation`);
    if (payload.a !== accountKey(binding.account)) throw invalid('issued for another account');
    return { pageToken: payload.p, tenantTag: payload.t };
  }

  checkTenant(opened: OpenedCursor, tenantId: string): void {
    const expected = Buffer.from(this.tenantTag(tenantId));
    const given = Buffer.from(opened.tenantTag);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('issued to another API key');
    }
  }

  private tenantTag(tenantId: string): string {
    return createHmac('sha256', this.tenantKey)
      .update(tenantId)
      .digest()
      .subarray(0, TENANT_TAG_BYTES)
      .toString('base64url');
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.macKey).update(body).digest();
  }
}

function parsePayload(encoded: string): Payload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (!value || typeof value !== 'object') return null;
    const { o, a, t, p } = value as Record<string, unknown>;
    if (typeof o !== 'string' || typeof a !== 'string' || typeof t !== 'string') return null;
    if (typeof p !== 'string') return null;
    return { o, a, t, p };
  } catch {
    return null;
  }
}
