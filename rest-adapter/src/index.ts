export { startRestAdapter } from './server.js';
export { loadRestAdapterConfig, type RestAdapterConfig } from './config.js';
export {
  settlementOpenApi,
  settlementOpenApiText,
  type SettlementOpenApiSources,
} from './openapi-settlement.js';
export { settlementOpenApiFile } from './openapi-settlement-served.js';
// The documents the REST rows send, for the benchmark's GraphQL hops (issue 14).
export { ADMIN_SETTLEMENT } from './routes/settlement-fields.js';
export { operationDocument, STATUS_DOCUMENT } from './routes/lens.routes.js';
// The documents it sends, for `npm run compose`'s trusted-document manifest (issue 27).
export { adapterDocuments } from './trusted-documents.js';
