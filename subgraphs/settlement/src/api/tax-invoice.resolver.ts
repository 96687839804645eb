import { Arg, Ctx, Field, Mutation, ObjectType, Resolver } from 'type-graphql';
import type { SettlementContext } from './context.js';

@ObjectType({ description: 'The answer to one delivery of the tax-invoice webhook' })
export class TaxInvoiceWebhookResult {
  @Field({
    description:
      'true: this delivery changed stored state; false: already applied, or a key ' +
      'the platform does not know (acknowledged so the provider stops retrying)',
  })
  applied!: boolean;
}

/**
 * `POST /api/webhooks/tax-invoice` (DESIGN.md section 5). No token: the provider has none; the
 * signature over the raw body is the credential, checked before anything is read.
 */
@Resolver()
export class TaxInvoiceWebhookResolver {
  @Mutation(() => TaxInvoiceWebhookResult, {
    description:
      'POST /api/webhooks/tax-invoice: the provider result in `rawBody` (the exact bytes it ' +
      'signed), verified with `signature` (X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of ' +
      '"<t>.<raw body>">). 401 WEBHOOK_SIGNATURE_INVALID, 400 INVALID_REQUEST; applied once per event.',
  })
  applyTaxInvoiceWebhook(
    @Arg('rawBody', () => String) rawBody: string,
    @Ctx() ctx: SettlementContext,
    @Arg('signature', () => String, { nullable: true }) signature?: string | null,
  ) {
    return ctx.services.taxInvoices.applyWebhook(ctx.em, rawBody, signature);
  }
}
