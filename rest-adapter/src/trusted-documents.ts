import { lensOperations, USAGE_DOCUMENT } from '@campaign/schema';
import { AVAILABLE_DOCUMENT } from './mcp/mcp-server.js';
import { CONNECT_DOCUMENT } from './oauth/consent.js';
import { operationDocument, STATUS_DOCUMENT } from './routes/lens.routes.js';
import { routes } from './server.js';

/**
 * Every GraphQL document the adapter sends (issue 27): one per REST row, one per lens tool and
 * the status and usage tools of the MCP front, the front's check of a new connection, and the
 * consent page's. `npm run compose` writes them to schema/trusted-documents.json; the adapter
 * refuses to run any other (gateway-client.ts).
 */
export const adapterDocuments = (): string[] => [
  ...routes.map((route) => route.document),
  ...Object.values(lensOperations).map(operationDocument),
  STATUS_DOCUMENT,
  USAGE_DOCUMENT,
  AVAILABLE_DOCUMENT,
  CONNECT_DOCUMENT,
];
