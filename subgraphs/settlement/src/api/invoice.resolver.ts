import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SettlementContext } from './context.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import { AdvertiserInvoice } from '../domain/invoice/advertiser-invoice.entity.js';

@Resolver(() => AdvertiserInvoice)
export class AdvertiserInvoiceResolver {
  @FieldResolver(() => [Settlement], { description: 'The settlements this invoice covers' })
  // A type, not the class: the stored row is not copied into an entity (settlement.resolver.ts).
  settlements(@Root() invoice: Pick<AdvertiserInvoice, 'id'>, @Ctx() ctx: SettlementContext) {
    return ctx.loaders.settlementsByInvoice.load(invoice.id);
  }
}
