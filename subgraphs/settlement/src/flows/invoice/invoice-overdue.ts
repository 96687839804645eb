import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@campaign/platform';
import {
  markOverdueInvoices,
  type OverdueRow,
} from '../../domain/invoice/invoice-overdue.repository.js';
import { formatMoney, parseMoney } from '../../kernel/money/money.js';
import { seoulDay } from '../../kernel/seoul-day.js';
import {
  enqueue,
  OutboxEvent,
  TEAM_CHAT_RECIPIENT,
  type OutboxMessage,
} from '../../journal/outbox/outbox.js';

/** Invoices moved by one sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/**
 * The notices of one invoice gone OVERDUE: one e-mail to the advertiser (filed under the first
 * settlement holding the invoice) and an `[INVOICE_OVERDUE]` message in the thread of each
 * settlement it holds. Dedupe keys name the invoice: a repeated sweep writes nothing twice.
 */
function overdueNotices(rows: OverdueRow[]): OutboxMessage[] {
  return rows.flatMap((row, index): OutboxMessage[] => {
    const facts = {
      settlementId: row.settlementId,
      campaignId: row.campaignId,
      campaignTitle: row.campaignTitle,
      settlementType: row.settlementType,
      invoiceNumber: row.invoiceNumber,
      totalAmount: formatMoney(parseMoney(row.totalAmount, 'totalAmount')),
      dueDate: seoulDay(new Date(row.dueDate)),
      advertiserName: row.advertiserName,
    };
    const chat: OutboxMessage = {
      event: OutboxEvent.INVOICE_OVERDUE,
      recipient: TEAM_CHAT_RECIPIENT,
      settlementId: row.settlementId,
      payload: { ...facts, thread: row.settlementId },
      dedupeKey: `invoice:${row.invoiceId}:overdue:${row.settlementId}`,
    };
    const first = index === 0 || rows[index - 1]!.invoiceId !== row.invoiceId;
    if (!first) return [chat];
    const mail: OutboxMessage = {
      event: OutboxEvent.PAYMENT_OVERDUE_ADVERTISER,
      recipient: row.advertiserEmail,
      settlementId: row.settlementId,
      payload: {
        ...facts,
        bankName: row.bankName,
        accountNumber: row.accountNumber,
        accountHolder: row.accountHolder,
      },
      dedupeKey: `invoice:${row.invoiceId}:overdue`,
    };
    return [mail, chat];
  });
}

/**
 * Issue 23 item 4: ISSUED invoices past their due date become OVERDUE once, with their notices,
 * in one transaction per sweep. Every replica sweeps every INVOICE_OVERDUE_SWEEP_SECONDS; the
 * update's row locks make each invoice move (and be announced) once across replicas.
 */
export class InvoiceOverdueSweep {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private failing = false;

  constructor(
    private readonly em: () => EntityManager,
    private readonly logger: Logger,
  ) {}

  /** One sweep: the invoices it moved. */
  async sweep(): Promise<number> {
    return this.em().transactional(async (tx) => {
      const rows = await markOverdueInvoices(tx, SWEEP_BATCH);
      await enqueue(tx, overdueNotices(rows));
      const invoices = new Set(rows.map((row) => row.invoiceNumber));
      if (invoices.size) this.logger.info({ invoices: [...invoices] }, 'invoices overdue');
      return invoices.size;
    });
  }

  /** Sweeps every `intervalMs`, each timed from the end of the last; failures logged once. */
  start(intervalMs: number): void {
    const tick = async () => {
      try {
        await this.sweep();
        this.failing = false;
      } catch (err) {
        if (!this.failing) this.logger.warn({ err }, 'overdue invoice sweep failed');
        this.failing = true;
      }
      if (this.timer) this.timer = setTimeout(() => (this.running = tick()), intervalMs).unref();
    };
    this.timer = setTimeout(() => (this.running = tick()), intervalMs).unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
