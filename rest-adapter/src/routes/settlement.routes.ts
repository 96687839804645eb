import { defineRoute, ok, params, type Route } from '../route.js';

/** Every field of spec section 2.3, in its order. */
export const SETTLEMENT_FIELDS = `id campaignId partnerId agencyId campaignPrice commissionRate commissionAmount
  settlementAmount withholdingTaxRate withholdingTaxAmount payoutAmount status settlementType
  advertiserInvoiceId partnerPayoutId invoiceIssuedAt invoicePaidAt partnerInvoiceReceivedAt
  bankName accountNumber accountHolder requestedAt processedAt completedAt adminNotes`;

export const settlementRoutes: Route<never>[] = [
  defineRoute<{ settlement: unknown }>({
    method: 'GET',
    path: '/api/admin/settlements/:id',
    document: `query($id: ID!) { settlement(id: $id) { ${SETTLEMENT_FIELDS} } }`,
    variables: (request) => ({ id: params(request)['id'] }),
    respond: (data) => ok(data.settlement),
  }),
] as Route<never>[];
