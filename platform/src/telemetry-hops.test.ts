import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_SECRET_HEADER, SUBGRAPH_SECRET_HEADER } from './client-address.js';
import { RequestBoundContextManager } from './telemetry-context.js';
import { isInternalHop, propagateOnInternalHops } from './telemetry-hops.js';

describe('isInternalHop', () => {
  it('is a call carrying the proxy or the subgraph secret, whatever the case of its name', () => {
    expect(isInternalHop({ headers: ['content-type', 'x', SUBGRAPH_SECRET_HEADER, 's'] })).toBe(
      true,
    );
    expect(isInternalHop({ headers: ['X-Proxy-Secret', 's'] })).toBe(true);
    expect(isInternalHop({ headers: `host: a\r\n${PROXY_SECRET_HEADER}: s\r\n` })).toBe(true);
  });

  it('is not a call to an outside system, even one whose header values name a secret', () => {
    expect(isInternalHop({ headers: ['accept', 'application/json'] })).toBe(false);
    expect(isInternalHop({ headers: ['x-note', SUBGRAPH_SECRET_HEADER] })).toBe(false);
    expect(isInternalHop({ headers: `x-note: ${PROXY_SECRET_HEADER}\r\n` })).toBe(false);
    expect(isInternalHop({ headers: undefined })).toBe(false);
  });
});

describe('propagateOnInternalHops', () => {
  const received: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    received.push(req.headers);
    res.end('ok');
  });
  let url: string;
  let stop: () => void;

  beforeAll(async () => {
    context.setGlobalContextManager(new RequestBoundContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    stop = propagateOnInternalHops();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stop();
    propagation.disable();
    context.disable();
    await new Promise((resolve) => server.close(resolve));
  });

  const active = trace.setSpanContext(context.active(), {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
  });
  const call = (headers: Record<string, string>) =>
    // Node's fetch: the undici bundled with Node publishes on the same channel as the package.
    context.with(active, () => fetch(url, { headers }).then((r) => r.text()));

  it("sends the active span's traceparent on a call to another of our services", async () => {
    await call({ [SUBGRAPH_SECRET_HEADER]: 'secret' });
    expect(received.at(-1)?.traceparent).toBe(
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    );
  });

  it('leaves a call to an outside system to the undici instrumentation', async () => {
    await call({ accept: 'application/json' });
    expect(received.at(-1)?.traceparent).toBeUndefined();
  });
});
