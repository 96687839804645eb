import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  composeSupergraph,
  readSubgraphSdls,
  readSupergraph,
  SUBGRAPHS,
  subgraphSdlFile,
  trustedDocumentManifest,
  trustedDocumentsFile,
  trustedDocumentsText,
} from '@campaign/schema';
import { adapterDocuments, settlementOpenApiFile } from '@campaign/rest-adapter';
import { emitSubgraphSdl } from './compose.js';
import { settlementOpenApiDocumentText } from './settlement-openapi.js';

describe('committed schema files', () => {
  it.each(SUBGRAPHS.map((s) => s.name))(
    'schema/%s.graphql matches the code (run `npm run compose`)',
    async (name) => {
      expect(emitSubgraphSdl(name)).toBe(await readFile(subgraphSdlFile(name), 'utf8'));
    },
  );

  it('schema/supergraph.graphql is the composition of the committed subgraphs', async () => {
    expect(composeSupergraph(await readSubgraphSdls())).toBe(await readSupergraph());
  });

  it('schema/openapi/settlement.json is built from the routes and the committed SDL', async () => {
    expect(await readFile(settlementOpenApiFile, 'utf8')).toBe(settlementOpenApiDocumentText());
  });

  it('schema/trusted-documents.json holds every document the adapter sends (issue 27)', async () => {
    const manifest = trustedDocumentManifest(adapterDocuments(), await readSupergraph());
    expect(await readFile(trustedDocumentsFile, 'utf8')).toBe(trustedDocumentsText(manifest));
  });
});
