import { describe, expect, it } from 'vitest';
import { createServiceApp, SERVICE_RETRY_AFTER_SECONDS } from './http.js';
import { createLogger } from './logger.js';
import { RouteMethods } from './route-methods.js';

describe('createServiceApp', () => {
  it('gives every 503 a Retry-After, the readiness probe included (issue 21)', async () => {
    const app = createServiceApp({
      logger: createLogger('test', 'silent'),
      readiness: () => Promise.reject(new Error('database down')),
    });
    app.get('/own', async (_request, reply) => reply.code(503).header('retry-after', '9').send());
    const probe = await app.inject({ method: 'GET', url: '/readyz' });
    expect([probe.statusCode, probe.headers['retry-after']]).toEqual([
      503,
      String(SERVICE_RETRY_AFTER_SECONDS),
    ]);
    // A time the route chose is kept.
    expect((await app.inject({ method: 'GET', url: '/own' })).headers['retry-after']).toBe('9');
    await app.close();
  });

  it('records every route it registers, the probes included, for 405 Allow', async () => {
    const routeMethods = new RouteMethods();
    const app = createServiceApp({
      logger: createLogger('test', 'silent'),
      readiness: async () => {},
      routeMethods,
    });
    app.post('/items', async () => ({}));
    app.get('/items/:id', async () => ({}));
    app.delete('/items/:id', async () => ({}));
    app.get('/items/special', async () => ({}));
    await app.ready();
    expect(routeMethods.allowOf('/healthz')).toEqual(['GET', 'HEAD']);
    expect(routeMethods.allowOf('/items')).toEqual(['POST']);
    expect(routeMethods.allowOf('/items/7')).toEqual(['GET', 'HEAD', 'DELETE']);
    // A literal and a parameter both match: the methods of either answer.
    expect(routeMethods.allowOf('/items/special')).toEqual(['GET', 'HEAD', 'DELETE']);
    expect(routeMethods.allowOf('/items/')).toBeNull();
    expect(routeMethods.allowOf('/items/7/more')).toBeNull();
    await app.close();
  });
});
