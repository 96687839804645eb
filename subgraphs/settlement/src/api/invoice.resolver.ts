import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SettlementContext } from './context.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';

@Resolver(() => AdvertiserInvoice)
export class AdvertiserInvoiceResolver {
  @FieldResolver(() => [Settlement], { description: 'The settlements this invoice covers' })
  settlements(@Root() invoice: AdvertiserInvoice, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementsByInvoice.load(invoice.id);
  }
}
