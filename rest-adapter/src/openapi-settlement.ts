import type { JsonSchema as Schema } from '@campaign/schema';
import type { Route } from './route.js';
import { agencyRoutes } from './routes/agency.routes.js';
import { partnerSettlementRoutes } from './routes/partner-settlement.routes.js';
import { publicRoutes } from './routes/public.routes.js';
import { quotationRoutes } from './routes/quotation.routes.js';
import { settlementRoutes } from './routes/settlement.routes.js';
import { webhookRoutes } from './routes/webhook.routes.js';
import { errorHeaders } from './openapi-settlement-errors.js';
import {
  OperationBuilder,
  type SettlementOpenApiSources,
} from './openapi-settlement-operations.js';

export type { SettlementOpenApiSources } from './openapi-settlement-operations.js';

/**
 * The OpenAPI 3.1 document of every REST path but lens (`/api/admin`, `/api/partner`,
 * `/api/public`, the tax-invoice webhook), built from what the adapter runs: the route table
 * (method, path, GraphQL operation, how the answer is sent) and the committed settlement SDL the
 * operations run against. `npm run compose` writes it as schema/openapi/settlement.json; the
 * adapter serves that file at `GET /api/openapi.json` and checks request bodies with it.
 */

/** The non-lens routes, in the order the adapter mounts them. */
export const documentedRoutes: Route<never>[] = [
  ...settlementRoutes,
  ...partnerSettlementRoutes,
  ...agencyRoutes,
  ...quotationRoutes,
  ...publicRoutes,
  ...webhookRoutes,
];

export const SETTLEMENT_OPENAPI_PATH = '/api/openapi.json';

export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const TAGS: Record<string, string> = {
  'admin settlements': 'Settlements as an admin processes them (spec 4.1).',
  'partner settlements': "A partner's own settlements (spec 4.2).",
  'admin agencies': 'Agencies (spec 4.4); create and deactivate need SUPER_ADMIN.',
  'admin quotation': 'Quotations and their workbooks (spec 4.5).',
  'public business': 'Business registration verification, no authentication (spec 4.6).',
  'webhooks tax-invoice': "The tax-invoice provider's results (signed deliveries).",
  documents: 'This document.',
};

/**
 * The schemas `roots` refer to, directly or through each other: a filter's input type becomes
 * query parameters and a workbook's GraphQL type a file, so neither is a schema of the document.
 */
function used(schemas: Record<string, Schema>, roots: unknown[]): Record<string, Schema> {
  const seen = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      if (seen.has(name!)) continue;
      seen.add(name!);
      visit(schemas[name!]);
    }
  };
  visit(roots);
  return Object.fromEntries(Object.entries(schemas).filter(([name]) => seen.has(name)));
}

/** The document; deterministic, so the committed file can be compared with it. */
export function settlementOpenApi(sources: SettlementOpenApiSources): Record<string, unknown> {
  const builder = new OperationBuilder(sources);
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of documentedRoutes) {
    const at = (paths[toOpenApiPath(route.path)] ??= {});
    at[route.method.toLowerCase()] = builder.operation(route);
  }
  paths[SETTLEMENT_OPENAPI_PATH] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This OpenAPI document',
      tags: ['documents'],
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the admin, partner, public and webhook paths.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Campaign Settlement System',
      version: '1.0.0',
      description:
        'Settlements of finished influencer campaigns, agencies, quotations, business verification and the tax-invoice webhook. ' +
        'Success: `{"success": true, "data": ...}`; error: `{"success": false, "error": {code, message, httpStatus, retryable}}`. ' +
        'Amounts are decimal strings with two decimals. Lists take `?cursor=&limit=` and answer `{items, nextCursor, total}`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:8080' } } }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        AdminBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A JWT of role SUPER_ADMIN or ADMIN (`npm run cli -- auth:token --role ADMIN`). An ADMIN with an agency sees only its agency; agency create and deactivate need SUPER_ADMIN.',
        },
        PartnerBearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A JWT of role PARTNER with its partner id (`npm run cli -- auth:token --role PARTNER --partner ID`).',
        },
        TaxInvoiceSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description:
            '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with the shared secret TAX_INVOICE_WEBHOOK_SECRET; missing, wrong, or more than 300 s off is a 401.',
        },
      },
      headers: errorHeaders,
      responses: builder.responses,
      schemas: used(builder.gql.components, [paths, builder.responses]),
    },
  };
}

/** The document as committed: two-space JSON with a final newline. */
export function settlementOpenApiText(sources: SettlementOpenApiSources): string {
  return `${JSON.stringify(settlementOpenApi(sources), null, 2)}\n`;
}
