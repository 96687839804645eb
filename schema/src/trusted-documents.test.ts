import { describe, expect, it } from 'vitest';
import { readSupergraph } from './supergraph.js';
import { documentId, trustedDocumentManifest } from './trusted-documents.js';

/** Issue 27: the manifest `npm run compose` writes holds only documents the supergraph runs. */
describe('trusted-document manifest', () => {
  it('validates each document against the supergraph and names the one that fails', async () => {
    const supergraph = await readSupergraph();
    expect(() => trustedDocumentManifest(['{ settlements { nope } }'], supergraph)).toThrow(
      /does not validate: Cannot query field "nope"/,
    );
    expect(() => trustedDocumentManifest(['{ defaultAgency { id } } {'], supergraph)).toThrow(
      /Syntax Error/,
    );
  });

  it('keeps each document once, by the sha256 of its body, with its name and type', async () => {
    const body = 'query Agency { defaultAgency { id } }';
    const manifest = trustedDocumentManifest([body, body], await readSupergraph());
    expect(manifest.operations).toEqual([
      { id: documentId(body), name: 'Agency', type: 'query', body },
    ]);
    expect(documentId(body)).toMatch(/^[0-9a-f]{64}$/);
  });
});
