import type { FastifyRequest } from 'fastify';
import { httpError, type HttpError } from '../errors.js';
import { defineRoute, ok, params, type HttpMethod, type Route } from '../route.js';

/** Every field of spec section 2.3, in its order. */
export const SETTLEMENT_FIELDS = `id campaignId partnerId agencyId campaignPrice commissionRate commissionAmount
  settlementAmount withholdingTaxRate withholdingTaxAmount payoutAmount status settlementType
  advertiserInvoiceId partnerPayoutId invoiceIssuedAt invoicePaidAt partnerInvoiceReceivedAt
  bankName accountNumber accountHolder requestedAt processedAt completedAt adminNotes`;

/**
 * Spec 2.5, without the settlements list (the settlement embeds its invoice, not the reverse),
 * plus where the provider stands with its tax invoice (key, status, failure) and with the
 * cancellation tax invoice that annuls it once the invoice is cancelled (issue 23).
 */
export const INVOICE_FIELDS = `id invoiceNumber advertiserId advertiserName agencyId invoiceType periodStart
  periodEnd subtotal taxAmount totalAmount taxInvoiceNumber taxInvoiceFileKey taxInvoiceIssuedAt status
  dueDate paidAt bankName accountNumber accountHolder createdAt
  taxInvoiceIssuanceKey taxInvoiceStatus taxInvoiceFailureCode taxInvoiceFailureMessage
  cancellationTaxInvoiceNumber cancellationTaxInvoiceStatus cancellationTaxInvoiceIssuedAt
  cancellationTaxInvoiceIssuanceKey cancellationTaxInvoiceFailureCode
  cancellationTaxInvoiceFailureMessage`;

/** Spec 2.5a, without the settlements list. */
export const PAYOUT_FIELDS = `id payoutNumber partnerId partnerName payoutType periodStart periodEnd subtotal
  taxAmount totalAmount partnerInvoiceNumber partnerInvoiceFileKey partnerInvoiceReceivedAt status paidAt
  transactionId bankName accountNumber accountHolder createdAt`;

/** Spec 2.6, plus when the approval URL expires and, once approved, the partner's tax invoice. */
export const REVERSE_ISSUANCE_FIELDS = `id settlementId issuanceKey status grantUrl grantUrlExpiresAt
  failureCode failureMessage taxInvoiceNumber documentUrl createdAt updatedAt`;

/** The admin resource: the spec's fields, its creation time, and the documents it links to. */
export const ADMIN_SETTLEMENT = `${SETTLEMENT_FIELDS} createdAt
  advertiserInvoice { ${INVOICE_FIELDS} } partnerPayout { ${PAYOUT_FIELDS} }
  reverseIssuance { ${REVERSE_ISSUANCE_FIELDS} }`;

/** The partner resource: as the admin's, without the advertiser's invoice. */
export const PARTNER_SETTLEMENT = `${SETTLEMENT_FIELDS} createdAt
  partnerPayout { ${PAYOUT_FIELDS} } reverseIssuance { ${REVERSE_ISSUANCE_FIELDS} }`;

const query = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

/**
 * `?cursor=&limit=` and the filters as query parameters. A whole-number limit becomes a number;
 * anything else goes through as it came, so GraphQL's input checks answer it with a 400, as they
 * do for an unknown filter.
 */
export function listVariables(request: FastifyRequest): Record<string, unknown> {
  const { cursor, limit, ...filter } = query(request);
  return {
    filter,
    cursor: cursor ?? null,
    limit: typeof limit === 'string' && /^\d{1,9}$/.test(limit) ? Number(limit) : (limit ?? null),
  };
}

/** One GET of a resource by `:id`. */
export function getById(path: string, field: string, selection: string): Route<never> {
  return defineRoute<Record<string, unknown>>({
    method: 'GET',
    path,
    document: `query($id: ID!) { result: ${field}(id: $id) { ${selection} } }`,
    variables: (request) => ({ id: params(request)['id'] }),
    respond: (data) => ok(data['result']),
  }) as Route<never>;
}

/** One GET of the resource a query without arguments answers (`field`). */
export function getOne(path: string, field: string, selection: string): Route<never> {
  return defineRoute<Record<string, unknown>>({
    method: 'GET',
    path,
    document: `query { result: ${field} { ${selection} } }`,
    variables: () => ({}),
    respond: (data) => ok(data['result']),
  }) as Route<never>;
}

/** One POST whose JSON body is the `input` of the mutation that creates the resource: 201. */
export function create(
  path: string,
  field: string,
  inputType: string,
  selection: string,
): Route<never> {
  return defineRoute<Record<string, unknown>>({
    method: 'POST',
    path,
    document: `mutation($input: ${inputType}!) {
      result: ${field}(input: $input) { ${selection} } }`,
    variables: (request) => ({ input: request.body ?? null }),
    respond: (data) => ok(data['result'], 201),
  }) as Route<never>;
}

/** One action on `:id` whose JSON body (optional unless `required`) is the mutation's `input`. */
export function action(
  method: HttpMethod,
  path: string,
  field: string,
  inputType: string,
  selection: string,
  required = false,
): Route<never> {
  return defineRoute<Record<string, unknown>>({
    method,
    path,
    document: `mutation($id: ID!, $input: ${inputType}${required ? '!' : ''}) {
      result: ${field}(id: $id, input: $input) { ${selection} } }`,
    variables: (request) => ({
      id: params(request)['id'],
      input: request.body ?? (required ? {} : null),
    }),
    respond: (data) => ok(data['result']),
  }) as Route<never>;
}

/** A page: `data` is `{items, nextCursor, total}`; `variables` reads the filter from the query. */
export function list(
  path: string,
  field: string,
  filterType: string,
  selection: string,
  variables = listVariables,
) {
  return defineRoute<Record<string, unknown>>({
    method: 'GET',
    path,
    document: `query($filter: ${filterType}, $cursor: String, $limit: Int) {
      result: ${field}(filter: $filter, cursor: $cursor, limit: $limit) {
        items { ${selection} } nextCursor total } }`,
    variables,
    respond: (data) => ok(data['result']),
  }) as Route<never>;
}

/**
 * For paths that take no body (DELETE, execute): none, or an empty JSON object. Anything else is
 * a 400, as an unknown field of any other body is.
 */
export function noBody(body: unknown): HttpError | null {
  const empty =
    body === undefined ||
    body === null ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  return empty ? null : httpError('INVALID_REQUEST', 'This path takes no body.');
}
