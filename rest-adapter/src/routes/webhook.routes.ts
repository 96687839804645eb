import { WEBHOOK_SIGNATURE_HEADER } from '@campaign/platform';
import { defineRoute, ok, type Route } from '../route.js';

/** Where the tax-invoice provider reports late results (DESIGN.md section 5, fixed). */
export const TAX_INVOICE_WEBHOOK_PATH = '/api/webhooks/tax-invoice';

/**
 * `POST /api/webhooks/tax-invoice`: no Authorization (the provider has no token); the raw body
 * and the X-Signature header go to the settlement subgraph unchanged, which verifies the
 * signature over exactly those bytes before reading anything. 200 `{applied}`, 401
 * WEBHOOK_SIGNATURE_INVALID, 400 INVALID_REQUEST.
 */
export const webhookRoutes: Route<never>[] = [
  defineRoute<{ result: { applied: boolean } }>({
    method: 'POST',
    path: TAX_INVOICE_WEBHOOK_PATH,
    rawBody: true,
    document: `mutation($rawBody: String!, $signature: String) {
      result: applyTaxInvoiceWebhook(rawBody: $rawBody, signature: $signature) { applied } }`,
    variables: (request) => {
      const signature = request.headers[WEBHOOK_SIGNATURE_HEADER];
      return {
        rawBody: typeof request.body === 'string' ? request.body : '',
        // A repeated header is passed as Node joined it; it then fails verification (401).
        signature: Array.isArray(signature) ? signature.join(', ') : (signature ?? null),
      };
    },
    respond: (data) => ok(data.result),
  }) as Route<never>,
];
