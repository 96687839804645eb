import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  parse,
  validate,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { schemaDir } from './supergraph.js';

/**
 * Trusted documents (issue 27): the GraphQL operations the REST adapter and its MCP front send
 * are a fixed set, written by `npm run compose` to `schema/trusted-documents.json` (committed; a
 * test fails when it is stale) in Apollo's persisted-query manifest format, each checked against
 * the supergraph when written and again when the adapter starts. The adapter runs no other
 * document.
 */
export const trustedDocumentsFile = new URL('trusted-documents.json', schemaDir);

export interface TrustedOperation {
  /** sha256 of the body, hex. */
  id: string;
  /** The operation's name ('' when it has none). */
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

export interface TrustedDocumentManifest {
  format: 'apollo-persisted-query-manifest';
  version: 1;
  operations: TrustedOperation[];
}

export const documentId = (body: string) => createHash('sha256').update(body).digest('hex');

/** The supergraph as graphql-js reads it, to validate documents against (no @inaccessible). */
const schemaOf = (supergraphSdl: string): GraphQLSchema =>
  buildSchema(supergraphSdl, { assumeValidSDL: true });

/** Parses and validates `body` against `schema`; the one operation it holds, or a thrown error. */
function operationOf(schema: GraphQLSchema, body: string): OperationDefinitionNode {
  const document = parse(body);
  const errors = validate(schema, document);
  if (errors.length)
    throw new Error(`trusted document does not validate: ${errors[0]!.message}\n${body}`);
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
  );
  if (operations.length !== 1) throw new Error(`a trusted document holds one operation:\n${body}`);
  return operations[0]!;
}

/** The manifest of `bodies` (duplicates once, ordered by id), each validated. */
export function trustedDocumentManifest(
  bodies: readonly string[],
  supergraphSdl: string,
): TrustedDocumentManifest {
  const schema = schemaOf(supergraphSdl);
  const operations = [...new Set(bodies)].map((body): TrustedOperation => {
    const operation = operationOf(schema, body);
    return {
      id: documentId(body),
      name: operation.name?.value ?? '',
      type: operation.operation,
      body,
    };
  });
  operations.sort((a, b) => a.id.localeCompare(b.id));
  return { format: 'apollo-persisted-query-manifest', version: 1, operations };
}

export const trustedDocumentsText = (manifest: TrustedDocumentManifest) =>
  `${JSON.stringify(manifest, null, 2)}\n`;

/**
 * The committed manifest, each document parsed and validated again against `supergraphSdl` (the
 * one the engine serves): a manifest out of step with the supergraph stops the start.
 */
export function loadTrustedDocuments(supergraphSdl: string): TrustedDocumentManifest {
  const manifest = JSON.parse(
    readFileSync(trustedDocumentsFile, 'utf8'),
  ) as TrustedDocumentManifest;
  const schema = schemaOf(supergraphSdl);
  for (const operation of manifest.operations) {
    operationOf(schema, operation.body);
    if (documentId(operation.body) !== operation.id)
      throw new Error(`trusted document ${operation.id}: its id is not its body's sha256`);
  }
  return manifest;
}
