import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaDir } from '@campaign/schema';
import { freePort, startService, type ServiceProcess } from '@campaign/stack';
import { rawRequest } from '../faults/support/raw.js';
import { stack } from '../support/clients.js';

/**
 * The served OpenAPI documents name the server they were fetched from (issue 21, item 8), so a
 * tool that imports one sends its requests to this adapter whatever its host or port; the
 * forwarded host and protocol count only where REST_TRUST_PROXY trusts the sender. The committed
 * copies keep the development default, the same on every machine.
 */

const DOCUMENTS = [
  ['/api/openapi.json', ''],
  ['/api/lens/v1/openapi.json', '/api/lens/v1'],
] as const;

const serversOf = (body: unknown) => (body as { servers: { url: string }[] }).servers;

let trusting: ServiceProcess | undefined;
let trustingUrl: string;

beforeAll(async () => {
  const port = await freePort();
  trustingUrl = `http://127.0.0.1:${port}`;
  trusting = await startService(
    {
      name: 'rest adapter (trusts the proxy)',
      main: 'rest-adapter/src/main.ts',
      env: {
        REST_PORT: String(port),
        GATEWAY_URL: stack().gateway,
        REST_TRUST_PROXY: 'true',
        LOG_LEVEL: 'fatal',
      },
    },
    'ignore',
  );
});

afterAll(async () => {
  await trusting?.stop();
});

describe('the served documents follow the request (issue 21, item 8)', () => {
  it('name the adapter they were fetched from, at its own port', async () => {
    for (const [path, base] of DOCUMENTS) {
      const response = await fetch(`${stack().rest}${path}`);
      expect(response.status).toBe(200);
      expect(serversOf(await response.json())).toEqual([{ url: `${stack().rest}${base}` }]);
    }
  });

  it('ignore forwarded headers from a sender REST_TRUST_PROXY does not trust', async () => {
    for (const [path, base] of DOCUMENTS) {
      const answer = await rawRequest(stack().rest, 'GET', path, [
        ['X-Forwarded-Host', 'attacker.example'],
        ['X-Forwarded-Proto', 'https'],
      ]);
      expect(serversOf(answer.body)).toEqual([{ url: `${stack().rest}${base}` }]);
    }
  });

  it('behind a trusted proxy: the forwarded protocol and host', async () => {
    for (const [path, base] of DOCUMENTS) {
      const answer = await rawRequest(trustingUrl, 'GET', path, [
        ['X-Forwarded-Host', 'api.example.com'],
        ['X-Forwarded-Proto', 'https'],
      ]);
      expect(serversOf(answer.body)).toEqual([{ url: `https://api.example.com${base}` }]);
    }
  });

  it('the committed copies stay deterministic: the development default', () => {
    for (const file of ['settlement.json', 'lens.json']) {
      const committed = JSON.parse(readFileSync(new URL(`openapi/${file}`, schemaDir), 'utf8')) as {
        servers: { variables: { base_url: { default: string } } }[];
      };
      expect(committed.servers[0]!.variables.base_url.default).toBe('http://127.0.0.1:8080');
    }
  });
});
