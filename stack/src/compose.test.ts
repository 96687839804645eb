import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  composeSupergraph,
  readSubgraphSdls,
  readSupergraph,
  SUBGRAPHS,
  subgraphSdlFile,
} from '@campaign/schema';
import { emitSubgraphSdl } from './compose.js';

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
});
