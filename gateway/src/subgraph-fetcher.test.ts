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
    if (request.url === '/slow') return void setTimeout(() => response.end('{}'), 5000).unref();
    response.writeHead(200, { 'content-type': 'application/json', 'x-replayed': 'true' });
    if (request.url !== '/chunks') return void response.end('{"data":{"ok":true}}');
    // A byte-order mark, then a body in chunks that split a character (read whole, as text()).
    const body = Buffer.from(`\ufeff{"data":{"name":"${'é'.repeat(40_000)}"}}`);
    response.write(body.subarray(0, 4));
    setImmediate(() => response.end(body.subarray(4)));
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

  it('reads a body of many chunks as undici’s text() does (no byte-order mark)', async () => {
    const answer = await fetcher.fetch(url.replace('/graphql', '/chunks'), { body: '{}' });
    expect(await answer.json()).toEqual({ data: { name: 'é'.repeat(40_000) } });
  });

  it('ends a request when its signal aborts, with the signal’s reason', async () => {
    const slow = url.replace('/graphql', '/slow');
    const reason = new Error('timed out');
    const controller = new AbortController();
    const pending = fetcher.fetch(slow, { body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
    const before = new AbortController();
    before.abort(reason);
    await expect(fetcher.fetch(slow, { body: '{}', signal: before.signal })).rejects.toBe(reason);
  });

  it('sends a record’s headers too (the Apollo data source’s shape)', async () => {
    const answer = await fetcher.fetch(url, { headers: { 'x-request-id': 'r-1' }, body: '{}' });
    expect(seen.at(-1)?.['x-request-id']).toBe('r-1');
    expect(await answer.json()).toEqual({ data: { ok: true } });
  });
});
