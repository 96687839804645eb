import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subgraphFetcher } from './subgraph-fetcher.js';

/**
 * Issue 27: the one fetcher both engines call subgraphs with. Apollo's data source reads status,
 * `headers.get` and `json`; the Hive engine's executor also `headers.entries` and `text`, and
 * hands a Headers object (not a record) for the request.
 */
describe('subgraphFetcher', () => {
  const seen: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json', 'x-replayed': 'true' });
    response.end('{"data":{"ok":true}}');
  });
  const fetcher = subgraphFetcher();
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  });
  afterAll(async () => {
    await fetcher.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends a Headers object’s headers and answers what both engines read', async () => {
    const answer = await fetcher.fetch(url, {
      method: 'POST',
      headers: new Headers({ 'x-subgraph-secret': 's3cret', 'content-type': 'application/json' }),
      body: '{"query":"{ ok }"}',
    });
    expect(seen.at(-1)?.['x-subgraph-secret']).toBe('s3cret');
    expect([answer.status, answer.ok, answer.headers.get('X-Replayed')]).toEqual([
      200,
      true,
      'true',
    ]);
    expect(Object.fromEntries(answer.headers.entries())).toMatchObject({
      'content-type': 'application/json',
      'x-replayed': 'true',
    });
    expect(await answer.text()).toBe('{"data":{"ok":true}}');
    expect(answer.headers.has('x-missing')).toBe(false);
  });

  it('sends a record’s headers too (the Apollo data source’s shape)', async () => {
    const answer = await fetcher.fetch(url, { headers: { 'x-request-id': 'r-1' }, body: '{}' });
    expect(seen.at(-1)?.['x-request-id']).toBe('r-1');
    expect(await answer.json()).toEqual({ data: { ok: true } });
  });
});
