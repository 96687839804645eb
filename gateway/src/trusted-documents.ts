import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import { GraphQLError } from 'graphql';
import { readFile } from 'node:fs/promises';
import { errorBody, trustedDocumentsFile, type TrustedDocumentManifest } from '@campaign/schema';
import type { GatewayConfig } from './config.js';

/**
 * `GATEWAY_TRUSTED_DOCUMENTS=require` on the standalone gateway (issue 27): consoles (a caller
 * with a bearer JWT: the admin, partner and tenant tokens of `auth:token` and the explorer) send
 * any document; every other caller (an API key, a tool token, no credential) may run only the
 * documents the REST adapter runs, schema/trusted-documents.json. Off by default: lens clients
 * that call GraphQL with their API key write their own documents.
 */
const CONSOLE_TOKEN = /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/;

const MESSAGE =
  'This gateway runs only its trusted documents (schema/trusted-documents.json) for this ' +
  'credential; send one of them, or call the REST interface.';

type Rule = (authorization: string | null | undefined, query: string | undefined) => boolean;

/**
 * The manifest's documents as committed (compose wrote them validated; the adapter checks them
 * against the supergraph at its start). The standalone gateway validates each against the schema
 * it serves when first sent (apollo-trusted.ts); one that fails is left to Apollo Server.
 */
export async function trustedDocumentBodies(): Promise<string[]> {
  const manifest = JSON.parse(
    await readFile(trustedDocumentsFile, 'utf8'),
  ) as TrustedDocumentManifest;
  return manifest.operations.map((operation) => operation.body);
}

/** Whether a caller may run `query`; null when the setting is off. */
async function ruleOf(config: GatewayConfig): Promise<Rule | null> {
  if (config.GATEWAY_TRUSTED_DOCUMENTS !== 'require') return null;
  const trusted = new Set(await trustedDocumentBodies());
  return (authorization, query) =>
    CONSOLE_TOKEN.test(authorization ?? '') || (query !== undefined && trusted.has(query));
}

const refusal = () =>
  new GraphQLError(MESSAGE, {
    extensions: { ...errorBody('PERMISSION_DENIED', MESSAGE), http: { status: 403 } },
  });

/** The Apollo engine's plugin, or none. */
export async function apolloTrustedDocuments<C extends object>(
  config: GatewayConfig,
): Promise<ApolloServerPlugin<C>[]> {
  const allowed = await ruleOf(config);
  if (!allowed) return [];
  return [
    {
      async requestDidStart() {
        return {
          async didResolveOperation({ request }) {
            if (!allowed(request.http?.headers.get('authorization'), request.query))
              throw refusal();
          },
        };
      },
    },
  ];
}

/** The Hive engine's plugin, or none. */
export async function hiveTrustedDocuments(config: GatewayConfig): Promise<GatewayPlugin[]> {
  const allowed = await ruleOf(config);
  if (!allowed) return [];
  return [
    {
      onValidate:
        ({ context }) =>
        ({ result, setResult }) => {
          if (result.length) return;
          const { request, params } = context as {
            request?: Request;
            params?: { query?: string };
          };
          if (!allowed(request?.headers.get('authorization'), params?.query))
            setResult([refusal()]);
        },
    },
  ];
}
