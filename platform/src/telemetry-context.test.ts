import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestBoundContextManager } from './telemetry-context.js';

const REQUEST = createContextKey('request');

/**
 * What the HTTP instrumentation does with every incoming request (bind the request and the
 * response to the request's context), then what fastify does: read the body, answer, and run
 * its onResponse hooks on the response's 'finish'. Each records the context it ran in.
 */
function tracedServer(seen: Record<string, unknown>[]) {
  return createServer((req, res) => {
    const requestContext = ROOT_CONTEXT.setValue(REQUEST, req.url);
    context.with(requestContext, () => {
      context.bind(context.active(), req);
      context.bind(context.active(), res);
      const finish = () => seen.push({ finish: context.active().getValue(REQUEST) });
      res.on('finish', finish);
      seen.push({ wrappedFinish: !res.listeners('finish').includes(finish) });
    });
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ end: context.active().getValue(REQUEST), body });
      setTimeout(() => res.end('ok'), 1);
    });
  });
}

describe('RequestBoundContextManager', () => {
  const seen: Record<string, unknown>[] = [];
  const server = tracedServer(seen);
  let url: string;

  beforeAll(async () => {
    context.setGlobalContextManager(new RequestBoundContextManager().enable());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    context.disable();
    await new Promise((resolve) => server.close(resolve));
  });

  it('does not wrap the listeners of a response', async () => {
    await fetch(`${url}/one`, { method: 'POST', body: 'x' });
    expect(seen).toContainEqual({ wrappedFinish: false });
  });

  it("runs a request's body listeners and its response's 'finish' in the request's context", async () => {
    seen.length = 0;
    // Two requests on one keep-alive connection: neither runs in the other's context.
    await fetch(`${url}/first`, { method: 'POST', body: 'a' });
    await fetch(`${url}/second`, { method: 'POST', body: 'b' });
    expect(seen.filter((s) => !('wrappedFinish' in s))).toEqual([
      { end: '/first', body: 'a' },
      { finish: '/first' },
      { end: '/second', body: 'b' },
      { finish: '/second' },
    ]);
  });
});
