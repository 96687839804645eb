import { z } from 'zod';
import { verifyWebhookSignature, type WebhookSignatureFailure } from '@campaign/platform';

/**
 * The tax-invoice provider's webhook body (DESIGN.md section 5, fixed): closed, so a field we do
 * not know is a 400 rather than something silently ignored. A SUCCESS carries the invoice number
 * (the specification stores it) and a FAILURE its code (the team-chat alert names it).
 */
export const taxInvoiceWebhookEventSchema = z
  .strictObject({
    eventId: z.string().min(1).max(200),
    issuanceKey: z.string().min(1).max(100),
    kind: z.enum(['FORWARD', 'REVERSE', 'CANCELLATION']),
    status: z.enum(['SUCCESS', 'FAILURE', 'CANCELLED']),
    taxInvoiceNumber: z.string().min(1).max(100).optional(),
    documentUrl: z.url().max(2000).optional(),
    failureCode: z.string().min(1).max(100).optional(),
    failureMessage: z.string().max(2000).optional(),
    occurredAt: z.iso.datetime({ offset: true }),
  })
  .refine((event) => event.status !== 'SUCCESS' || event.taxInvoiceNumber !== undefined, {
    message: 'a SUCCESS event carries taxInvoiceNumber',
    path: ['taxInvoiceNumber'],
  })
  .refine((event) => event.status !== 'FAILURE' || event.failureCode !== undefined, {
    message: 'a FAILURE event carries failureCode',
    path: ['failureCode'],
  });

export type TaxInvoiceWebhookEvent = z.infer<typeof taxInvoiceWebhookEventSchema>;

export type WebhookReading =
  | { ok: true; event: TaxInvoiceWebhookEvent }
  /** 401: the signature is missing, wrong, or outside the 300 s window. Nothing may change. */
  | { ok: false; httpStatus: 401; reason: WebhookSignatureFailure }
  /** 400: signed, but not the documented body. */
  | { ok: false; httpStatus: 400; reason: string };

/**
 * Reads one delivery as the route receives it: the signature first, over the raw bytes (so an
 * unsigned body is never even parsed), then the body's shape. What `applied` means is the
 * caller's (the settlement rules); this only says whether the delivery is authentic and readable.
 */
export function readTaxInvoiceWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | readonly string[] | undefined,
  secrets: string | readonly string[],
  now?: number,
): WebhookReading {
  const check = verifyWebhookSignature(
    secrets,
    rawBody,
    signatureHeader,
    now === undefined ? {} : { now },
  );
  if (!check.ok) return { ok: false, httpStatus: 401, reason: check.reason };
  let json: unknown;
  try {
    json = JSON.parse(
      typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'),
    );
  } catch {
    return { ok: false, httpStatus: 400, reason: 'the body is not JSON' };
  }
  const parsed = taxInvoiceWebhookEventSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return { ok: false, httpStatus: 400, reason: `${where}${issue?.message ?? 'invalid body'}` };
  }
  return { ok: true, event: parsed.data };
}
