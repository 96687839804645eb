import { vi } from 'vitest';
import {
  createLogger,
  OutboxDelivery,
  outboxEnv,
  retryPolicy,
  type LendClient,
} from '@campaign/platform';
import {
  deliveryHandlers,
  settlementOutbox,
  type ChannelHandlers,
  type OutboxRow,
} from '@campaign/settlement';
import type { Sql } from '@campaign/stack';

/** Fixtures of the outbox delivery tests (outbox-delivery.test.ts). */

const logger = createLogger('outbox-test', 'silent');

/** The delivery's view of a connection (a `pg` client's `query`). */
export const asClient = (db: Sql) => ({
  query: async (text: string, values?: unknown[]) => ({ rows: await db.query(text, values) }),
});

/** Lends `client` for each short transaction of a delivery (graphile's withPgClient in service). */
export const lend =
  (client: ReturnType<typeof asClient>): LendClient =>
  (work) =>
    work(client);

export const handlers = () =>
  ({
    EMAIL: vi.fn(async (_row: OutboxRow) => undefined),
    TEAM_CHAT: vi.fn(async (_row: OutboxRow) => undefined),
    TAX_INVOICE_PROVIDER: vi.fn(async (_row: OutboxRow) => undefined),
  }) satisfies ChannelHandlers;

/** One process's delivery (its own lease owner and memory) with these handlers. */
export function worker(channelHandlers: ChannelHandlers, maxAttempts = 3) {
  const policy = retryPolicy(
    outboxEnv.parse({ OUTBOX_MAX_ATTEMPTS: String(maxAttempts), OUTBOX_RETRY_BASE_MS: '60000' }),
  );
  return new OutboxDelivery({
    repository: settlementOutbox,
    handlers: deliveryHandlers(channelHandlers),
    policy,
    leaseMs: 60_000,
    logger,
  });
}

/** An agency row (no service creates the default agency). */
export const agencyFixture = (code: string, isDefault: boolean) => ({
  name: code,
  code,
  businessName: `${code} Co.`,
  businessNumber: '1208147521',
  representativeName: 'Kim',
  bankName: 'Shinhan Bank',
  accountNumber: '110-123-456789',
  accountHolder: `${code} Co.`,
  email: `${code}@platform.example`,
  isDefault,
  isActive: true,
});
