import { defineRoute, ok, params, type RestResponse, type Route } from '../route.js';
import { create, list, noBody } from './settlement-fields.js';

const base = '/api/admin/quotation';

/** The quotation resource of DESIGN.md 5; its lines as the body gives them. */
export const QUOTATION_FIELDS = `id status advertiserId agencyId title validUntil
  lines { partnerId deliverable price commissionRate }
  supplyAmount vatAmount totalAmount campaignIds createdAt updatedAt`;

const FILE_FIELDS = 'fileName contentType base64';

/**
 * The workbook as bytes: GraphQL carries `{fileName, contentType, base64}`, a REST client gets
 * the file itself, with its type and a download name (the name is letters, digits, `-` and `_`
 * only: quotationFileName makes it so).
 */
export function fileResponse(file: {
  fileName: string;
  contentType: string;
  base64: string;
}): RestResponse {
  return {
    status: 200,
    body: Buffer.from(file.base64, 'base64'),
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.fileName}"`,
    },
  };
}

type FileData = { result: { fileName: string; contentType: string; base64: string } };

/** One mutation on `:quoId`, answered with the quotation. */
const onQuotation = (
  method: 'PUT' | 'DELETE' | 'PATCH' | 'POST',
  path: string,
  field: string,
  inputType: string | null,
) =>
  defineRoute<Record<string, unknown>>({
    method,
    path,
    document: inputType
      ? `mutation($id: ID!, $input: ${inputType}!) {
          result: ${field}(id: $id, input: $input) { ${QUOTATION_FIELDS} } }`
      : `mutation($id: ID!) { result: ${field}(id: $id) { ${QUOTATION_FIELDS} } }`,
    variables: (request) => ({
      id: params(request)['quoId'],
      ...(inputType ? { input: request.body ?? null } : {}),
    }),
    respond: (data) => ok(data['result']),
    ...(inputType ? {} : { validateBody: noBody }),
  }) as Route<never>;

/** Spec section 4.5: the nine quotation paths, each one GraphQL operation (DESIGN.md 5 names). */
export const quotationRoutes: Route<never>[] = [
  list(base, 'quotations', 'QuotationFilter', QUOTATION_FIELDS),
  create(base, 'createQuotation', 'QuotationInput', QUOTATION_FIELDS),
  defineRoute<FileData>({
    method: 'POST',
    path: `${base}/generate`,
    document: `query($input: QuotationInput!) {
      result: generateQuotationWorkbook(input: $input) { ${FILE_FIELDS} } }`,
    variables: (request) => ({ input: request.body ?? null }),
    respond: (data) => fileResponse(data.result),
  }) as Route<never>,
  defineRoute<Record<string, unknown>>({
    method: 'GET',
    path: `${base}/:quoId`,
    document: `query($id: ID!) { result: quotation(id: $id) { ${QUOTATION_FIELDS} } }`,
    variables: (request) => ({ id: params(request)['quoId'] }),
    respond: (data) => ok(data['result']),
  }) as Route<never>,
  onQuotation('PUT', `${base}/:quoId`, 'updateQuotation', 'QuotationInput'),
  onQuotation('DELETE', `${base}/:quoId`, 'cancelQuotation', null),
  onQuotation(
    'PATCH',
    `${base}/:quoId/status`,
    'changeQuotationStatus',
    'ChangeQuotationStatusInput',
  ),
  onQuotation('POST', `${base}/:quoId/execute`, 'executeQuotation', null),
  defineRoute<FileData>({
    method: 'GET',
    path: `${base}/:quoId/download`,
    document: `query($id: ID!) { result: quotationWorkbook(id: $id) { ${FILE_FIELDS} } }`,
    variables: (request) => ({ id: params(request)['quoId'] }),
    respond: (data) => fileResponse(data.result),
  }) as Route<never>,
];
