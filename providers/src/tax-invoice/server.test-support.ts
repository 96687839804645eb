import { useSimulators } from './simulator.test-support.js';

/**
 * The simulated provider as server.test.ts and server-reverse.test.ts see it: a simulator that
 * decides after DELAY_MS and retries webhooks quickly, a slow one that decides only after a minute
 * (what happens before the decision, free of timing), both on a clock the tests move, and the
 * requests the tests send.
 */

export const SECRET = 'simulator-test-webhook-secret';
export const DELAY_MS = 80;

export function useProviderSimulators() {
  let clock = Date.parse('2026-12-01T00:00:00Z');
  let keys = 0;
  const now = () => new Date(clock);
  const rig = useSimulators(SECRET, [
    { delayMs: DELAY_MS, webhookRetryDelaysMs: [20, 20, 20], now },
    { delayMs: 60_000, now },
  ]);
  const sim = () => rig.simulators[0]!;

  const key = () => `SET${++keys}-F1`;
  const forward = (buyer: string, issuanceKey = key(), extra: Record<string, unknown> = {}) => ({
    issuanceKey,
    supplier: { name: '기본 대행사', businessNumber: '1234567891' },
    buyer: { name: buyer, businessNumber: null, email: 'ads@example.com' },
    supplyAmount: '1000000.00',
    vat: '100000.00',
    total: '1100000.00',
    ...extra,
  });
  const reverse = (partner: string, issuanceKey = key()) => ({
    issuanceKey,
    supplier: { name: partner, businessNumber: '2208162517', email: 'partner@example.com' },
    buyer: { name: '기본 대행사', businessNumber: '1234567891' },
    supplyAmount: '500000.00',
    vat: '50000.00',
    total: '550000.00',
  });

  async function call(method: string, path: string, body?: unknown, target = sim()) {
    const response = await fetch(`${target.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, unknown>,
    };
  }
  /** What a browser sends when the approval page's button is pressed. */
  const FORM = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const deliveriesFor = (issuanceKey: string) =>
    rig.receiver.deliveries.filter((d) => d.body.issuanceKey === issuanceKey);

  return {
    get sim() {
      return sim();
    },
    get receiver() {
      return rig.receiver;
    },
    get slow() {
      return rig.simulators[1]!;
    },
    /** The simulators' clock, in milliseconds since the epoch. */
    clock: () => clock,
    advanceClock: (ms: number) => {
      clock += ms;
    },
    key,
    forward,
    reverse,
    call,
    FORM,
    wait,
    deliveriesFor,
  };
}
