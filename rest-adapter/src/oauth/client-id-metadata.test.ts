import { describe, expect, it } from 'vitest';
import { isMetadataDocumentUrl } from './client-id-metadata.js';

describe('which client ids are metadata document URLs', () => {
  const deployed = 'https://api.example.com';
  const development = 'http://127.0.0.1:8080';

  it('takes https URLs with a path, without credentials or fragment', () => {
    expect(isMetadataDocumentUrl('https://app.example/oauth/client.json', deployed)).toBe(true);
    expect(isMetadataDocumentUrl('https://app.example/', deployed)).toBe(false);
    expect(isMetadataDocumentUrl('https://u:p@app.example/c.json', deployed)).toBe(false);
    expect(isMetadataDocumentUrl('https://app.example/c.json#x', deployed)).toBe(false);
    expect(isMetadataDocumentUrl('a-registered-client-id', deployed)).toBe(false);
  });

  it('takes http only on loopback, and only for a development issuer on loopback', () => {
    expect(isMetadataDocumentUrl('http://127.0.0.1:5000/c.json', development)).toBe(true);
    expect(isMetadataDocumentUrl('http://127.0.0.1:5000/c.json', deployed)).toBe(false);
    expect(isMetadataDocumentUrl('http://app.example/c.json', development)).toBe(false);
  });
});
