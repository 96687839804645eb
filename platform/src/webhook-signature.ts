import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { DEVELOPMENT_SECRETS } from './secrets.js';

/**
 * The signature of the tax-invoice provider's webhook (DESIGN.md section 5):
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 *
 * One module signs (the simulated provider) and verifies (the platform), so the two can never
 * drift apart. The time is part of the signed text, so an old delivery cannot be replayed
 * outside the tolerance window, and the body is signed as raw bytes: re-serialised JSON would
 * not match what the provider signed.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'x-signature';
/** How far a signature's time may lie behind or ahead of ours (inclusive), in seconds. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The shared secret of the tax-invoice webhook (published development value by default). */
export const webhookSecretVar = z
  .string()
  .min(16, 'must be at least 16 characters')
  .default(DEVELOPMENT_SECRETS.webhook);

export type WebhookSignatureFailure =
  /** No header, or an empty one. */
  | 'MISSING'
  /** Not `t=<digits>,v1=<64 hex>`. */
  | 'MALFORMED'
  /** Well formed, but no v1 value matches the body under any of our secrets. */
  | 'MISMATCH'
  /** Signed more than the tolerance ago. */
  | 'TOO_OLD'
  /** Signed more than the tolerance ahead of our clock. */
  | 'TOO_NEW';

export type WebhookSignatureCheck =
  { ok: true; timestamp: number } | { ok: false; reason: WebhookSignatureFailure };

const nowSeconds = () => Math.floor(Date.now() / 1000);

function digest(secret: string, timestamp: number, rawBody: string | Uint8Array): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest();
}

/** The header value for `rawBody`, signed now (or at `timestamp`, unix seconds). */
export function signWebhook(
  secret: string,
  rawBody: string | Uint8Array,
  timestamp: number = nowSeconds(),
): string {
  return `t=${timestamp},v1=${digest(secret, timestamp, rawBody).toString('hex')}`;
}

/**
 * Checks a signature header against the raw body. Several `v1=` entries and several secrets are
 * accepted (any match wins) so that a secret can be rotated without dropping deliveries: the
 * provider signs with both for a while, or the platform accepts both.
 */
export function verifyWebhookSignature(
  secrets: string | readonly string[],
  rawBody: string | Uint8Array,
  header: string | readonly string[] | undefined,
  options: { now?: number; toleranceSeconds?: number } = {},
): WebhookSignatureCheck {
  // Node's headersDistinct gives arrays: one value is that value; two are not one we issued.
  if (Array.isArray(header) && header.length > 1) return { ok: false, reason: 'MALFORMED' };
  const single: unknown = Array.isArray(header) ? header[0] : header;
  const text = typeof single === 'string' ? single.trim() : '';
  if (!text) return { ok: false, reason: 'MISSING' };
  const parsed = parseHeader(text);
  if (!parsed) return { ok: false, reason: 'MALFORMED' };
  const now = options.now ?? nowSeconds();
  const tolerance = options.toleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
  if (parsed.timestamp < now - tolerance) return { ok: false, reason: 'TOO_OLD' };
  if (parsed.timestamp > now + tolerance) return { ok: false, reason: 'TOO_NEW' };
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  for (const secret of keys) {
    const expected = digest(secret, parsed.timestamp, rawBody);
    // Every candidate is compared in constant time; lengths are fixed (32 bytes) by the parser.
    if (parsed.signatures.some((candidate) => timingSafeEqual(candidate, expected))) {
      return { ok: true, timestamp: parsed.timestamp };
    }
  }
  return { ok: false, reason: 'MISMATCH' };
}

function parseHeader(text: string): { timestamp: number; signatures: Buffer[] } | null {
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of text.split(',')) {
    const [key, value, ...rest] = part.trim().split('=');
    if (key === undefined || value === undefined || rest.length) return null;
    if (key === 't') {
      // Ten digits at most: longer is not a unix time in seconds (and would lose precision).
      if (timestamp !== null || !/^\d{1,10}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      signatures.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, a future v2) are ignored, so the provider can add one without breaking us.
  }
  if (timestamp === null || !signatures.length) return null;
  return { timestamp, signatures };
}
