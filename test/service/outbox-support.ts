import { vi } from 'vitest';
import { createLogger } from '@campaign/platform';
import {
  DeliveredMemory,
  outboxEnv,
  retryPolicy,
  type ChannelHandlers,
  type DeliveryDeps,
  type OutboxRow,
} from '@campaign/settlement';
import type { Sql } from '@campaign/stack';

/** Fixtures of the outbox delivery tests (outbox-delivery.test.ts). */

const logger = createLogger('outbox-test', 'silent');

/** The delivery's view of a connection (a `pg` client's `query`). */
export const asClient = (db: Sql) => ({
  query: async (text: string, values?: unknown[]) => ({ rows: await db.query(text, values) }),
});

export const handlers = () =>
  ({
    EMAIL: vi.fn(async (_row: OutboxRow) => undefined),
    TEAM_CHAT: vi.fn(async (_row: OutboxRow) => undefined),
    TAX_INVOICE_PROVIDER: vi.fn(async (_row: OutboxRow) => undefined),
  }) satisfies ChannelHandlers;

export function deps(channelHandlers: ChannelHandlers, maxAttempts = 3): DeliveryDeps {
  const policy = retryPolicy(
    outboxEnv.parse({ OUTBOX_MAX_ATTEMPTS: String(maxAttempts), OUTBOX_RETRY_BASE_MS: '60000' }),
  );
  return { handlers: channelHandlers, policy, delivered: new DeliveredMemory(), logger };
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
