import { createHash } from 'node:crypto';
import { lensOperationList } from '@campaign/schema';

/**
 * The consent page of MCP authorization (issue 25, item 3): one HTML document with no script and
 * no outside file, so it works offline; its only style is inline and allowed by its hash.
 */

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f5f5f7; color: #1d1d1f; }
main { max-width: 40rem; margin: 2rem auto; background: #fff; padding: 2rem; border-radius: 8px; }
h1 { font-size: 1.4rem; margin-top: 0; }
label { display: block; margin: .4rem 0; }
fieldset { border: 1px solid #ccc; border-radius: 6px; margin: 1rem 0; }
input[type=password], input[type=number] { width: 100%; padding: .4rem; box-sizing: border-box; }
.error { color: #b00020; font-weight: 600; }
.buttons { display: flex; gap: 1rem; margin-top: 1.5rem; }
button { padding: .6rem 1.4rem; font-size: 1rem; border-radius: 6px; cursor: pointer; }
button[value=approve] { background: #0a66c2; color: #fff; border: none; }
small { color: #555; }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The page's own CSP: nothing but its inline style; the form posts here, and the redirect that
 * answers the post goes back to the client, which `form-action` governs too (Chromium applies it
 * to the redirect chain): so the client's registered redirect URI is allowed, and nothing else.
 */
export function consentPageCsp(redirectUri: string): string {
  return [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    "img-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    `form-action 'self' ${cspSource(redirectUri)}`,
  ].join('; ');
}

/** A CSP source for a redirect URI: the exact URL for http(s), the scheme for an app's own. */
function cspSource(uri: string): string {
  const url = new URL(uri);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return `${url.origin}${url.pathname}`.replace(/[;,\s]/g, encodeURIComponent);
  }
  return url.protocol;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export interface ConsentView {
  uid: string;
  clientName: string;
  redirectUri: string;
  resource: string;
  /** The operations the client asked for: checked at first. */
  requested: readonly string[];
  /** What the person chose, when the page is shown again after a refusal. */
  chosen?: { operations: readonly string[]; creditsCap: string };
  error?: string;
}

export function consentPage(view: ConsentView): string {
  const checked = new Set(view.chosen?.operations ?? view.requested);
  const boxes = lensOperationList
    .map(
      (op) =>
        `<label><input type="checkbox" name="operation" value="${escape(op.name)}"${
          checked.has(op.name) ? ' checked' : ''
        }> <code>${escape(op.name)}</code> <small>${escape(op.summary)}</small></label>`,
    )
    .join('\n');
  const client = escape(view.clientName);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect ${client} to your lens account</title>
<style>${STYLE}</style></head>
<body><main>
<h1><span id="client-name">${client}</span> asks to use your lens account</h1>
<p>It will call the lens operations you allow below as tools, through MCP at
<code>${escape(view.resource)}</code>, spending your account's credits. It returns to
<code>${escape(view.redirectUri)}</code>. You can revoke it any time in the account console.</p>
${view.error ? `<p class="error" role="alert" id="error">${escape(view.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/consent/${escape(view.uid)}">
<label>REST API key or account console (TENANT) token of your lens account
<input type="password" name="credential" autocomplete="current-password" required></label>
<fieldset><legend>Operations ${client} may call</legend>
${boxes}
</fieldset>
<label>Credits cap (optional): the most credits this connection may spend in all
<input type="number" name="creditsCap" min="1" step="1" value="${escape(view.chosen?.creditsCap ?? '')}"></label>
<div class="buttons">
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
</main></body></html>`;
}

/** A short page for a request the authorization server no longer knows (expired, finished). */
export const staleConsentPage = (message: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Connection request ended</title>
<style>${STYLE}</style></head><body><main><h1>This connection request has ended</h1>
<p class="error">${escape(message)}</p><p>Start again from your client.</p></main></body></html>`;

/** The ended request's page posts nowhere. */
export const STALE_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${STYLE_HASH}`,
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
