import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as Composition from '@apollo/composition';
import { parse } from 'graphql';

/**
 * Composition runs at compose time only, yet every service loads this package: @apollo/composition
 * (about 10 MB of each process's memory) is required on first use instead (issue 27). It is
 * CommonJS, so a synchronous require keeps composeSupergraph synchronous.
 */
const requireHere = createRequire(import.meta.url);
const composition = () => requireHere('@apollo/composition') as typeof Composition;

export const SUBGRAPHS = [
  { name: 'lens', url: 'http://127.0.0.1:4001/graphql' },
  { name: 'settlement', url: 'http://127.0.0.1:4002/graphql' },
] as const;

export const schemaDir = new URL('../', import.meta.url);
export const subgraphSdlFile = (name: string) => new URL(`${name}.graphql`, schemaDir);
export const supergraphFile = new URL('supergraph.graphql', schemaDir);

/** Composes the committed subgraph SDLs into the static supergraph the gateway serves. */
export function composeSupergraph(sdls: Record<string, string>): string {
  const result = composition().composeServices(
    SUBGRAPHS.map(({ name, url }) => ({ name, url, typeDefs: parse(sdls[name]!) })),
  );
  if (result.errors) {
    throw new Error(
      `composition failed:\n${result.errors.map((e) => `  - ${e.message}`).join('\n')}`,
    );
  }
  return result.supergraphSdl;
}

export async function readSubgraphSdls(): Promise<Record<string, string>> {
  const entries = await Promise.all(
    SUBGRAPHS.map(
      async ({ name }) => [name, await readFile(subgraphSdlFile(name), 'utf8')] as const,
    ),
  );
  return Object.fromEntries(entries);
}

export function readSupergraph(): Promise<string> {
  return readFile(supergraphFile, 'utf8');
}
