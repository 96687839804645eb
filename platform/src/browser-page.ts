/**
 * What the platform's browser pages (the gateway's explorer, the adapter's API reference) share:
 * each serves its own files and talks to its own origin only.
 */

/**
 * The page's own files only; the explorer's and the reference's widgets set inline styles, and
 * their fonts and icons are data: URLs. Requests go to this origin alone; no other may frame it.
 */
export const SELF_ONLY_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** JSON to embed in a `<script type="application/json">`: no `<` can close the element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c');
