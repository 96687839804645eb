import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import {
  composeSupergraph,
  SUBGRAPHS,
  subgraphSdlFile,
  supergraphFile,
  trustedDocumentManifest,
  trustedDocumentsFile,
  trustedDocumentsText,
} from '@campaign/schema';
import { lensOpenApiFile, lensOpenApiText } from '@campaign/schema';
import { adapterDocuments, settlementOpenApiFile } from '@campaign/rest-adapter';
import { repoRoot } from './processes.js';
import { settlementOpenApiDocumentText } from './settlement-openapi.js';

/**
 * Emits each subgraph's SDL in its own process (type-graphql keeps decorator metadata
 * process-wide) and composes the committed supergraph from them.
 */
export function emitSubgraphSdl(name: string): string {
  return execFileSync(
    process.execPath,
    ['--import', '@swc-node/register/esm-register', `subgraphs/${name}/src/emit-sdl.ts`],
    { cwd: repoRoot, encoding: 'utf8' },
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sdls: Record<string, string> = {};
  for (const { name } of SUBGRAPHS) {
    sdls[name] = emitSubgraphSdl(name);
    await writeFile(subgraphSdlFile(name), sdls[name]!);
    console.log(`wrote schema/${name}.graphql`);
  }
  const supergraph = composeSupergraph(sdls);
  await writeFile(supergraphFile, supergraph);
  console.log('wrote schema/supergraph.graphql');
  await writeFile(
    trustedDocumentsFile,
    trustedDocumentsText(trustedDocumentManifest(adapterDocuments(), supergraph)),
  );
  console.log('wrote schema/trusted-documents.json');
  await writeFile(lensOpenApiFile, lensOpenApiText());
  console.log('wrote schema/openapi/lens.json');
  // After the SDL above: the settlement document is built from the committed settlement SDL.
  await writeFile(settlementOpenApiFile, settlementOpenApiDocumentText());
  console.log('wrote schema/openapi/settlement.json');
}
