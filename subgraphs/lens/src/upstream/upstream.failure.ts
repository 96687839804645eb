import { UpstreamError } from './upstream.port.js';
import type { RawFailure } from './upstream.raw.js';

/**
 * The platform's error answers → UpstreamError kinds:
 * - 404 → NOT_FOUND;
 * - "Not authorized to view user" (a private account; 400 or 403) → PRIVATE;
 * - 429, or the 400 "Please wait a few minutes" / `spam` answer → RATE_LIMITED;
 * - `error_type: feature_unavailable` or "This feature is not available" → UNSUPPORTED;
 * - 5xx, a refused credential (401/403 `login_required`) and anything unrecognised → UNAVAILABLE.
 */
export function failureOf(status: number, body: unknown): UpstreamError {
  const raw: RawFailure = body && typeof body === 'object' ? (body as RawFailure) : {};
  const message = typeof raw.message === 'string' ? raw.message : '';
  const said = message ? `: ${message}` : '';
  if (status === 404) return new UpstreamError('NOT_FOUND', `account not found${said}`);
  if (status === 429 || raw.spam === true || /please wait a few minutes/i.test(message)) {
    return new UpstreamError('RATE_LIMITED', `upstream rate limit (HTTP ${status})${said}`);
  }
  if (status >= 500)
    return new UpstreamError('UNAVAILABLE', `upstream answered HTTP ${status}${said}`);
  if (/not authorized to view user/i.test(message) || raw.error_type === 'private_account') {
    return new UpstreamError('PRIVATE', 'the account is private');
  }
  if (raw.error_type === 'feature_unavailable' || /feature is not available/i.test(message)) {
    return new UpstreamError('UNSUPPORTED', `upstream feature not available${said}`);
  }
  if (status === 401 || status === 403 || raw.require_login === true) {
    return new UpstreamError(
      'UNAVAILABLE',
      `upstream refused the credential (HTTP ${status})${said}`,
    );
  }
  return new UpstreamError('UNAVAILABLE', `unexpected upstream answer (HTTP ${status})${said}`);
}
