import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { installMetrics, metricsAccess } from './metrics.js';

async function appWith(access: ReturnType<typeof metricsAccess>) {
  const app = Fastify();
  installMetrics(app, access);
  app.get('/things/:id', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('GET /metrics', () => {
  it('records requests by route template and status, never the raw path', async () => {
    const app = await appWith({ mode: 'open' });
    await app.inject({ method: 'GET', url: '/things/SET123' });
    await app.inject({ method: 'GET', url: '/nowhere/at/all' });
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/things\/:id",http_response_status_code="200"\} [1-9]/,
    );
    expect(text).toContain('http_route="unmatched",http_response_status_code="404"');
    expect(text).not.toContain('SET123');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    await app.close();
  });

  it('answers only the bearer of METRICS_TOKEN when it is set, and nobody in production without it', async () => {
    const token = 'a-metrics-token-of-32-characters';
    expect(metricsAccess({ METRICS_TOKEN: token })).toEqual({ mode: 'token', token });
    expect(metricsAccess({ NODE_ENV: 'production' })).toEqual({ mode: 'off' });
    expect(metricsAccess({})).toEqual({ mode: 'open' });
    expect(metricsAccess({ METRICS_ENABLED: 'false', METRICS_TOKEN: token })).toEqual({
      mode: 'disabled',
    });
    const guarded = await appWith({ mode: 'token', token });
    expect((await guarded.inject({ url: '/metrics' })).statusCode).toBe(401);
    const wrong = { authorization: 'Bearer a-metrics-token-of-32-characterX' };
    expect((await guarded.inject({ url: '/metrics', headers: wrong })).statusCode).toBe(401);
    const right = { authorization: `Bearer ${token}` };
    expect((await guarded.inject({ url: '/metrics', headers: right })).statusCode).toBe(200);
    await guarded.close();
    const off = await appWith({ mode: 'off' });
    expect((await off.inject({ url: '/metrics' })).statusCode).toBe(404);
    await off.close();
    const disabled = await appWith({ mode: 'disabled' });
    expect((await disabled.inject({ url: '/metrics' })).statusCode).toBe(404);
    await disabled.close();
  });

  it('keeps one series per route, method and status however often a tuple recurs', async () => {
    const app = Fastify();
    installMetrics(app, { mode: 'open' });
    app.get('/items/:id', async (request, reply) =>
      (request.params as { id: string }).id === 'gone' ? reply.code(404).send({}) : { ok: true },
    );
    await app.ready();
    for (const id of ['a', 'b', 'gone', 'c', 'gone']) await app.inject({ url: `/items/${id}` });
    await app.inject({ method: 'DELETE', url: '/items/a' });
    const text = (await app.inject({ url: '/metrics' })).body;
    const count = (method: string, status: number) =>
      new RegExp(
        `http_server_request_duration_seconds_count\\{http_request_method="${method}",http_route="/items/:id",http_response_status_code="${status}"\\} (\\d+)`,
      ).exec(text)?.[1];
    // Counts are per process (prom-client's one registry): other tests' requests add to none of these.
    expect([count('GET', 200), count('GET', 404)]).toEqual(['3', '2']);
    expect(text).toContain('http_request_method="DELETE",http_route="unmatched"');
    await app.close();
  });
});
