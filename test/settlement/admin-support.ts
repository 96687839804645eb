import ExcelJS from 'exceljs';
import { cli } from '../support/cli.js';
import { graphql, graphqlOk, rest, stack, type HttpResult } from '../support/clients.js';
import { assertDocumented } from '../support/settlement-openapi.js';
import { agencyInput, uniqueCode } from './agency-input.js';
import type { Envelope } from './support.js';

/** Fixtures of the agency, campaign-change and quotation whole-stack tests (issue 12). */

export { agencyInput, uniqueCode };

export type AgencyBody = Record<string, unknown> & { id: number; code: string; isActive: boolean };

export const adminCall = <T = Record<string, unknown>>(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<HttpResult<Envelope<T>>> => rest<Envelope<T>>(method, path, { token, body });

/** A new active agency (REST create as SUPER_ADMIN). */
export async function createAgency(superAdmin: string, extra: Record<string, unknown> = {}) {
  const response = await adminCall<AgencyBody>('POST', '/api/admin/agencies', superAdmin, {
    ...agencyInput(),
    ...extra,
  });
  if (response.status !== 201) throw new Error(`agency create: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** An ADMIN token scoped to `agencyId`. */
export const agencyAdminToken = (agencyId: number | string) =>
  cli('auth:token', '--role', 'ADMIN', '--agency', String(agencyId));

export interface FileAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** A REST call whose answer is a file (or an error body, kept as bytes). */
export async function fetchFile(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<FileAnswer> {
  const response = await fetch(`${stack().rest}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type');
  const json = type?.startsWith('application/json')
    ? (JSON.parse(bytes.toString()) as unknown)
    : null;
  assertDocumented(method, path, response.status, type, json);
  return { status: response.status, headers: response.headers, bytes };
}

export async function readWorkbook(bytes: Buffer | string): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'base64') : bytes;
  await book.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('Quotation');
  if (!sheet) throw new Error('the workbook has no Quotation sheet');
  return sheet;
}

/** Every cell of a sheet with a value, as `A1 → value` (and the number format where set). */
export function cellsOf(sheet: ExcelJS.Worksheet): Record<string, unknown> {
  const cells: Record<string, unknown> = {};
  sheet.eachRow((row) =>
    row.eachCell((cell) => {
      cells[cell.address] = cell.numFmt ? { value: cell.value, numFmt: cell.numFmt } : cell.value;
    }),
  );
  return cells;
}

/** updateCampaign through the gateway; the data, or the GraphQL errors. */
export async function updateCampaign(
  token: string,
  id: string,
  input: Record<string, unknown>,
): Promise<{ data?: { updateCampaign: Record<string, unknown> } | null; errors?: GqlErrors }> {
  return graphql(
    `
      mutation ($id: ID!, $input: UpdateCampaignInput!) {
        updateCampaign(id: $id, input: $input) {
          id
          title
          price
          commissionRate
          agencyId
          status
          settlement {
            id
            agencyId
            campaignPrice
            commissionRate
            commissionAmount
            settlementAmount
            withholdingTaxAmount
            payoutAmount
            status
            advertiserInvoiceId
          }
        }
      }
    `,
    { id, input },
    token,
  );
}

export type GqlErrors = { message: string; extensions?: Record<string, unknown> }[];

/** The agency's change trail, as GraphQL shows it. */
export async function agencyTrail(token: string, id: number) {
  const { agency } = await graphqlOk<{
    agency: {
      auditTrail: { action: string; actorRole: string; before: unknown; after: unknown }[];
    };
  }>(
    `query($id: ID!) { agency(id: $id) { auditTrail { action actorRole before after createdAt } } }`,
    { id: String(id) },
    token,
  );
  return agency.auditTrail;
}
