import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTaxAuthoritySimulator,
  type RunningTaxAuthoritySimulator,
} from '../../../../../providers/src/tax-authority/index.js';
import { businessNumberCheckDigit } from '../../kernel/business-number/business-number.js';
import { BusinessStatusUnavailableError } from './business-status.port.js';
import { NtsBusinessStatusService } from './nts-business-status.js';

/** The adapter against the simulated authority (DESIGN.md: decided by the 6th digit). */

let sim: RunningTaxAuthoritySimulator;
let service: NtsBusinessStatusService;

beforeAll(async () => {
  sim = await startTaxAuthoritySimulator({
    host: '127.0.0.1',
    port: 0,
    serviceKey: 'portal/key+=',
  });
  service = new NtsBusinessStatusService({
    baseUrl: sim.url,
    serviceKey: 'portal/key+=',
    timeoutMs: 3000,
  });
});
afterAll(() => sim.close());

/** A valid number (check digit included) whose 6th digit is `sixth`. */
const numberWith = (sixth: number) => {
  const nine = `12345${sixth}123`;
  return `${nine}${businessNumberCheckDigit(nine)}`;
};

describe('NtsBusinessStatusService against the simulator', () => {
  it('maps each of the four outcomes', async () => {
    expect(await service.lookup(numberWith(0))).toEqual({
      businessNumber: numberWith(0),
      registered: true,
      status: 'ACTIVE',
      closedAt: null,
      taxType: '부가가치세 일반과세자',
    });
    expect(await service.lookup(numberWith(8))).toMatchObject({
      registered: true,
      status: 'SUSPENDED',
      closedAt: null,
    });
    const closed = await service.lookup(numberWith(9));
    expect(closed).toMatchObject({ registered: true, status: 'CLOSED' });
    expect(closed.closedAt).toMatch(/^2025-\d{2}-\d{2}$/);
    expect(await service.lookup(numberWith(7))).toEqual({
      businessNumber: numberWith(7),
      registered: false,
      status: null,
      closedAt: null,
      taxType: null,
    });
  });

  it('turns a refused key and an outage into PROVIDER_UNAVAILABLE', async () => {
    const wrongKey = new NtsBusinessStatusService({ baseUrl: sim.url, serviceKey: 'other' });
    const refused = await wrongKey.lookup(numberWith(0)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BusinessStatusUnavailableError);
    expect(refused).toMatchObject({
      failure: 'CREDENTIALS_REFUSED',
      code: 'PROVIDER_UNAVAILABLE',
      retryable: true,
    });
    await fetch(`${sim.url}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"count":1}',
    });
    expect(await service.lookup(numberWith(0)).catch((e: unknown) => e)).toMatchObject({
      failure: 'ERROR_ANSWER',
    });
    expect((await service.lookup(numberWith(0))).status).toBe('ACTIVE');
  });
});
