import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NOT_REGISTERED_MESSAGE,
  simulatedStatus,
  startTaxAuthoritySimulator,
  STATUS_PATH,
  type RunningTaxAuthoritySimulator,
} from './index.js';

let sim: RunningTaxAuthoritySimulator;

beforeAll(async () => {
  sim = await startTaxAuthoritySimulator({ host: '127.0.0.1', port: 0, serviceKey: 'key+/=' });
});
afterAll(() => sim.close());

async function status(body: string | object, serviceKey: string | null = 'key+/=') {
  const query = serviceKey === null ? '' : `?serviceKey=${encodeURIComponent(serviceKey)}`;
  const response = await fetch(`${sim.url}${STATUS_PATH}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('simulated business status', () => {
  it('decides by the 6th digit', () => {
    expect(simulatedStatus('1234501234')).toMatchObject({
      b_stt: '계속사업자',
      b_stt_cd: '01',
      end_dt: '',
    });
    expect(simulatedStatus('1234581234')).toMatchObject({
      b_stt: '휴업자',
      b_stt_cd: '02',
      end_dt: '',
    });
    expect(simulatedStatus('1234591234')).toMatchObject({ b_stt: '폐업자', b_stt_cd: '03' });
    expect(simulatedStatus('1234591234').end_dt).toMatch(
      /^2025(0[1-9]|1[0-2])(0[1-9]|1\d|2[0-8])$/,
    );
    expect(simulatedStatus('1234571234')).toMatchObject({
      b_stt_cd: '',
      tax_type: NOT_REGISTERED_MESSAGE,
    });
    expect(simulatedStatus('123-45-01234')).toMatchObject({
      b_stt_cd: '',
      tax_type: NOT_REGISTERED_MESSAGE,
    });
  });

  it('gives a tax type that is a function of the number', () => {
    expect(simulatedStatus('1239501234')).toMatchObject({
      tax_type_cd: '04',
      tax_type: '부가가치세 면세사업자',
    });
    expect(simulatedStatus('1238001234')).toMatchObject({ tax_type_cd: '06' });
    expect(simulatedStatus('1234501204')).toMatchObject({
      tax_type_cd: '02',
      tax_type: '부가가치세 간이과세자',
    });
    expect(simulatedStatus('1234501234')).toMatchObject({
      tax_type_cd: '01',
      tax_type: '부가가치세 일반과세자',
    });
  });
});

describe('status API', () => {
  it('answers in the real service’s shape', async () => {
    const answer = await status({ b_no: ['1234501234', '1234571234', '1234591234'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status_code: 'OK', request_cnt: 3, match_cnt: 2 });
    const data = answer.body.data as Record<string, string>[];
    expect(data.map((d) => d.b_no)).toEqual(['1234501234', '1234571234', '1234591234']);
    expect(Object.keys(data[0]!).sort()).toEqual(
      [
        'b_no',
        'b_stt',
        'b_stt_cd',
        'tax_type',
        'tax_type_cd',
        'end_dt',
        'utcc_yn',
        'tax_type_change_dt',
        'invoice_apply_dt',
        'rbf_tax_type',
        'rbf_tax_type_cd',
      ].sort(),
    );
  });

  it('answers the service’s errors', async () => {
    expect(await status({ b_no: ['1234501234'] }, 'wrong')).toMatchObject({
      status: 401,
      body: { code: -4 },
    });
    expect(await status({ b_no: ['1234501234'] }, null)).toMatchObject({ status: 401 });
    expect(await status('{"b_no": [')).toEqual({
      status: 400,
      body: { status_code: 'BAD_JSON_REQUEST' },
    });
    expect(await status({ b_no: [] })).toEqual({
      status: 411,
      body: { status_code: 'REQUEST_DATA_MALFORMED' },
    });
    expect(await status({ numbers: ['1'] })).toMatchObject({ status: 411 });
    const many = Array.from({ length: 101 }, (_, i) => String(1000000000 + i));
    expect(await status({ b_no: many })).toEqual({
      status: 413,
      body: { status_code: 'TOO_LARGE_REQUEST' },
    });
  });

  it('fails the next calls on request', async () => {
    await fetch(`${sim.url}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ count: 1 }),
    });
    expect(await status({ b_no: ['1234501234'] })).toEqual({
      status: 500,
      body: { status_code: 'INTERNAL_ERROR' },
    });
    expect((await status({ b_no: ['1234501234'] })).status).toBe(200);
  });

  it('lists the requests it received, newest first, and forgets them on DELETE', async () => {
    await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' });
    await status({ b_no: ['1234501234'] });
    await status({ b_no: ['1234581234', '1234591234'] }, 'wrong');
    await status('{"b_no": [');
    const listed = (await (await fetch(`${sim.url}/_sim/requests`)).json()) as {
      b_no: unknown;
      receivedAt: string;
    }[];
    expect(listed.map((r) => r.b_no)).toEqual([['1234581234', '1234591234'], ['1234501234']]);
    expect(listed[0]!.receivedAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect((await fetch(`${sim.url}/_sim/requests`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await fetch(`${sim.url}/_sim/requests`)).json()).toEqual([]);
  });
});
