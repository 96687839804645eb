import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp } from './http.js';

/** Issue 15: one line per request, none for the probes, successes at debug, failures by default. */
describe('request log lines', () => {
  const lines: { level: number; msg: string; http?: { statusCode: number } }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = createServiceApp({
    logger: pino({ level: 'debug' }, sink),
    readiness: async () => undefined,
  });
  app.get('/ok', async () => ({ ok: true }));
  app.get('/refused', async (_request, reply) => reply.code(403).send({ no: true }));
  app.get('/broken', async (_request, reply) => reply.code(503).send({ down: true }));

  beforeAll(async () => {
    for (const url of ['/healthz', '/readyz', '/ok?x=1', '/refused', '/broken'])
      await app.inject({ method: 'GET', url });
  });
  afterAll(() => app.close());

  it('writes one line per request that is not a probe, with its level by outcome', () => {
    const requests = lines.filter((line) => line.http);
    expect(requests.map((line) => [line.level, line.msg.replace(/\(\d+ ms\)/, '(n ms)')])).toEqual([
      [20, 'GET /ok 200 (n ms)'],
      [30, 'GET /refused 403 (n ms)'],
      [40, 'GET /broken 503 (n ms)'],
    ]);
    expect(lines.some((line) => /healthz|readyz|incoming request/.test(line.msg))).toBe(false);
  });

  it('at info, leaves out the successes and keeps the refusals (the level gate of issue 27)', async () => {
    const atInfo: { msg: string }[] = [];
    const app = createServiceApp({
      logger: pino(
        { level: 'info' },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            for (const line of chunk.toString().split('\n').filter(Boolean))
              atInfo.push(JSON.parse(line));
            done();
          },
        }),
      ),
      readiness: async () => undefined,
    });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/refused', async (_request, reply) => reply.code(403).send({ no: true }));
    for (const url of ['/ok?x=1', '/refused?y=2']) await app.inject({ method: 'GET', url });
    await app.close();
    expect(atInfo.map((line) => line.msg.replace(/\(\d+ ms\)/, '(n ms)'))).toEqual([
      'GET /refused 403 (n ms)',
    ]);
  });
});
