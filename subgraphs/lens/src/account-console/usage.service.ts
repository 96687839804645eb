import type { EntityManager } from '@mikro-orm/postgresql';
import { parseUsageRange, PlatformError, type LensUsageData } from '@campaign/schema';
import { UsageRepository } from './usage.repository.js';

/**
 * Usage per UTC day × credential × operation over a range of at most LENS_USAGE_MAX_DAYS. A call
 * counts on the day it was accepted; its credits are those it has settled so far (a RUNNING
 * call counts as a call, neither succeeded nor failed, with nothing charged or refunded yet).
 */
export class UsageService {
  constructor(private readonly repository = new UsageRepository()) {}

  async usage(
    em: EntityManager,
    tenantId: string,
    raw: { from?: unknown; to?: unknown },
  ): Promise<LensUsageData> {
    const range = parseUsageRange(raw);
    const found = await this.repository.usage(em, tenantId, range);
    if (!found) throw new PlatformError('NOT_FOUND', `No lens tenant ${tenantId}.`);
    const rows = found.rows.map((row) => ({
      ...row,
      calls: Number(row.calls),
      succeeded: Number(row.succeeded),
      failed: Number(row.failed),
      charged: Number(row.charged),
      refunded: Number(row.refunded),
    }));
    const totals = { calls: 0, charged: 0, refunded: 0 };
    for (const row of rows) {
      totals.calls += row.calls;
      totals.charged += row.charged;
      totals.refunded += row.refunded;
    }
    return { ...range, balance: Number(found.balance), rows, totals };
  }
}
