import { REQUEST_ID_HEADER } from '@campaign/platform';
import type { ReplicaUrls } from '@campaign/stack';
import { call, cli, graphqlOk, sleep, type Answer } from './fault-stack.js';

/**
 * Settlement journeys for the fault and replica tests: a PLATFORM_SETTLEMENT of an INDIVIDUAL
 * partner walked from SETTLEMENT_PENDING to SETTLEMENT_COMPLETED through REST. Each step writes
 * outbox messages (e-mails, team chat, the tax-invoice request) and the invoice and payout
 * numbers, so a journey exercises every invariant of `checkInvariants`.
 */
export interface Party {
  admin: string;
  partner: string;
  partnerId: number;
  advertiserId: number;
}

let seq = 0;
const unique = (label: string) => `${label} ${process.pid}-${Date.now()}-${++seq}`;

export async function newParty(gateway: string): Promise<Party> {
  const admin = await cli('auth:token', '--role', 'SUPER_ADMIN');
  const { createPartner } = await graphqlOk<{ createPartner: { id: number } }>(
    gateway,
    admin,
    `mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }`,
    {
      input: {
        name: unique('Faults Partner'),
        entityType: 'INDIVIDUAL',
        email: `faults-partner-${++seq}@notify.example`,
        bankName: 'Kakao Bank',
        accountNumber: '3333-01-1234567',
        accountHolder: 'Faults Holder',
      },
    },
  );
  const { createAdvertiser } = await graphqlOk<{ createAdvertiser: { id: number } }>(
    gateway,
    admin,
    `mutation($input: CreateAdvertiserInput!) { createAdvertiser(input: $input) { id } }`,
    { input: { name: unique('Faults Advertiser'), email: `faults-adv-${++seq}@notify.example` } },
  );
  const partner = await cli(
    'auth:token',
    '--role',
    'PARTNER',
    '--partner',
    String(createPartner.id),
  );
  return { admin, partner, partnerId: createPartner.id, advertiserId: createAdvertiser.id };
}

/** A new settlement (campaign created and marked uploaded): its id. */
export async function newSettlement(gateway: string, party: Party): Promise<string> {
  const { createCampaign } = await graphqlOk<{ createCampaign: { id: string } }>(
    gateway,
    party.admin,
    `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { id } }`,
    {
      input: {
        partnerId: party.partnerId,
        advertiserId: party.advertiserId,
        title: unique('Faults Campaign'),
        price: '1000000.00',
      },
    },
  );
  const { markCampaignUploaded } = await graphqlOk<{
    markCampaignUploaded: { settlement: { id: string } };
  }>(
    gateway,
    party.admin,
    `mutation($id: ID!) { markCampaignUploaded(id: $id) { settlement { id } } }`,
    {
      id: createCampaign.id,
    },
  );
  return markCampaignUploaded.settlement.id;
}

/** The step that moves a settlement on from each status, and who takes it. */
const NEXT: Record<
  string,
  { method: string; suffix: string; by: 'admin' | 'partner'; body?: unknown }
> = {
  SETTLEMENT_PENDING: { method: 'POST', suffix: '/request', by: 'partner' },
  AWAITING_ADVERTISER_PAYMENT: {
    method: 'PATCH',
    suffix: '/status',
    by: 'admin',
    body: { status: 'ADVERTISER_PAID' },
  },
  ADVERTISER_PAID: { method: 'POST', suffix: '/start-payout', by: 'admin' },
  PARTNER_PAYOUT_PROCESSING: { method: 'POST', suffix: '/complete', by: 'admin' },
};

/**
 * What a settlement walk may be answered while a fault lasts: 200, the outage's 503, and 409 for
 * a step whose answer was lost though it committed (the walk then reads the status again).
 */
export const FAULT_ANSWERS: readonly number[] = [200, 409, 503];

export interface JourneyLog {
  /** Every answer's status, in order (0: no connection). */
  statuses: number[];
  /** Each answer outside FAULT_ANSWERS (but 0: no answer to show), with its request id. */
  unexpected?: { requestId: string; answer: string }[];
}

const statusOf = async (
  rest: string,
  party: Party,
  id: string,
): Promise<Answer<{ data?: { status: string } }>> =>
  call(rest, 'GET', `/api/admin/settlements/${id}`, { token: party.admin });

/**
 * Walks settlement `id` to SETTLEMENT_COMPLETED through `rest`, a step at a time. An answer that
 * is not 200 (503 while the database is away, 0 while a gateway restarts, 409 when a step whose
 * answer was lost had committed) is recorded, and the walk goes on from the status read again.
 */
export async function walk(
  rests: readonly string[],
  party: Party,
  id: string,
  log: JourneyLog,
  timeoutMs = 90_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let turn = 0;
  for (;;) {
    const rest = rests[turn++ % rests.length]!;
    const current = await statusOf(rest, party, id);
    note(log, 'GET', id, current);
    const status = current.body?.data?.status;
    if (status === 'SETTLEMENT_COMPLETED') return;
    if (Date.now() > deadline) throw new Error(`${id} stuck at ${status ?? current.status}`);
    const step = status ? NEXT[status] : undefined;
    if (!step) {
      await sleep(200);
      continue;
    }
    const answer = await call(
      rest,
      step.method,
      `/api/${step.by === 'admin' ? 'admin' : 'partner'}/settlements/${id}${step.suffix}`,
      {
        token: step.by === 'admin' ? party.admin : party.partner,
        ...(step.body ? { body: step.body } : {}),
      },
    );
    note(log, step.method, `${id}${step.suffix}`, answer);
    if (answer.status !== 200) await sleep(200);
  }
}

function note(log: JourneyLog, method: string, path: string, answer: Answer<unknown>): void {
  log.statuses.push(answer.status);
  if (answer.status === 0 || FAULT_ANSWERS.includes(answer.status)) return;
  const requestId = answer.headers.get(REQUEST_ID_HEADER) ?? '';
  (log.unexpected ??= []).push({
    requestId,
    answer: `${answer.status} ${method} ${path} ${requestId} ${JSON.stringify(answer.body).slice(0, 400)}`,
  });
}

export const restsOf = (replicas: readonly ReplicaUrls[]) => replicas.map((r) => r.rest);
