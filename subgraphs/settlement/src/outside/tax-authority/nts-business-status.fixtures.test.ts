import type { RunningServer } from '@campaign/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../../../stack/src/free-port.js';
import { Replayed, startReplayServer } from '../../../../../stack/src/replay-server.js';
import { fixture } from './fixtures/load.js';
import { BusinessStatusUnavailableError } from './business-status.port.js';
import { NtsBusinessStatusService } from './nts-business-status.js';

/**
 * The adapter against recorded-shape answers of the real service, replayed by a local server.
 * The first path segment picks the server's behaviour (`/ok`, `/e500`, `/hang`, ...), so each
 * adapter's base URL chooses one; the rest is the service's path.
 */

type Answer = { data: { b_no: string; b_stt_cd: string }[] };
const STATUS = ['status_active', 'status_suspended', 'status_closed', 'status_unregistered'].map(
  (name) => fixture<Answer>(name),
);
const errors = fixture<Record<string, unknown>>('errors');

let server: RunningServer;
const seen: { query: URLSearchParams; body: unknown }[] = [];

beforeAll(async () => {
  server = await startReplayServer({
    failures: {
      e400: new Replayed(400, errors.badJson),
      e411: new Replayed(411, errors.malformed),
      e413: new Replayed(413, errors.tooLarge),
      e500: new Replayed(500, errors.internal),
      e401: new Replayed(401, errors.unregisteredKey),
    },
    notJson: '<html>gateway error</html>',
    record: ({ url, body }) => seen.push({ query: url.searchParams, body }),
    answer: ({ mode, path, method, body }) => {
      if (method !== 'POST' || path !== '/api/nts-businessman/v1/status') {
        return new Replayed(404, { message: 'no such path' });
      }
      const requested = (body as { b_no: string[] }).b_no[0];
      if (mode === 'wrongnumber') return STATUS[0];
      if (mode === 'oddcode') {
        const answer = structuredClone(STATUS[0]!);
        answer.data[0] = { ...answer.data[0]!, b_no: requested!, b_stt_cd: '04' };
        return answer;
      }
      return (
        STATUS.find((answer) => answer.data[0]!.b_no === requested) ??
        new Replayed(500, errors.internal)
      );
    },
  });
});
afterAll(() => server.close());

const adapter = (mode: string, timeoutMs = 3000) =>
  new NtsBusinessStatusService({
    baseUrl: `${server.url}/${mode}/`,
    serviceKey: 'a+b/c==',
    timeoutMs,
  });
const failureOf = (mode: string, timeoutMs?: number) =>
  adapter(mode, timeoutMs)
    .lookup('5052300009')
    .then(
      () => null,
      (e: unknown) => e as BusinessStatusUnavailableError,
    );

describe('NtsBusinessStatusService against recorded answers', () => {
  it('sends {b_no: [number]} with the service key in the query', async () => {
    await adapter('ok').lookup('2208162517');
    const last = seen.at(-1)!;
    expect(last.body).toEqual({ b_no: ['2208162517'] });
    expect(last.query.get('serviceKey')).toBe('a+b/c==');
  });

  it('maps active, suspended, closed and unregistered', async () => {
    const ok = adapter('ok');
    expect(await ok.lookup('2208162517')).toEqual({
      businessNumber: '2208162517',
      registered: true,
      status: 'ACTIVE',
      closedAt: null,
      taxType: '부가가치세 일반과세자',
    });
    expect(await ok.lookup('1208147521')).toEqual({
      businessNumber: '1208147521',
      registered: true,
      status: 'SUSPENDED',
      closedAt: null,
      taxType: '부가가치세 간이과세자',
    });
    expect(await ok.lookup('2148639239')).toEqual({
      businessNumber: '2148639239',
      registered: true,
      status: 'CLOSED',
      closedAt: '2024-03-15',
      taxType: '부가가치세 일반과세자',
    });
    expect(await ok.lookup('1048184126')).toEqual({
      businessNumber: '1048184126',
      registered: false,
      status: null,
      closedAt: null,
      taxType: null,
    });
  });

  it('turns every failure into PROVIDER_UNAVAILABLE with the reason', async () => {
    for (const [mode, failure] of [
      ['e400', 'ERROR_ANSWER'],
      ['e411', 'ERROR_ANSWER'],
      ['e413', 'ERROR_ANSWER'],
      ['e500', 'ERROR_ANSWER'],
      ['e401', 'CREDENTIALS_REFUSED'],
      ['notjson', 'BAD_ANSWER'],
      ['wrongnumber', 'BAD_ANSWER'],
      ['oddcode', 'BAD_ANSWER'],
    ] as const) {
      const error = await failureOf(mode);
      expect(error, mode).toBeInstanceOf(BusinessStatusUnavailableError);
      expect(error, mode).toMatchObject({
        failure,
        code: 'PROVIDER_UNAVAILABLE',
        retryable: true,
        system: 'TAX_AUTHORITY',
      });
    }
    expect((await failureOf('e500'))?.message).toContain('INTERNAL_ERROR');
  });

  it('gives up on a hanging or absent authority within its time limit', async () => {
    const started = Date.now();
    expect(await failureOf('hang', 200)).toMatchObject({ failure: 'TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(1400);
    const nowhere = new NtsBusinessStatusService({
      baseUrl: `http://127.0.0.1:${await freePort()}`,
    });
    expect(await nowhere.lookup('2208162517').catch((e: unknown) => e)).toMatchObject({
      failure: 'UNREACHABLE',
    });
  });
});
