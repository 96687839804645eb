import type { EntityManager } from '@mikro-orm/postgresql';
import { type DocumentPrefix, formatDocumentNumber, seoulYearMonth } from './document-number.js';

/**
 * The next `INV-YYYY-MM-NNNN` / `PAY-YYYY-MM-NNNN` (DESIGN S7). One counter row per prefix and
 * Asia/Seoul month, incremented by an upsert inside the caller's transaction: concurrent callers
 * queue on the row lock, and a transaction that rolls back takes its number back with it, so the
 * numbers are unique and gapless.
 */
export async function nextDocumentNumber(
  em: EntityManager,
  prefix: DocumentPrefix,
  at: Date = new Date(),
): Promise<string> {
  const yearMonth = seoulYearMonth(at);
  const key = `${yearMonth.year}-${String(yearMonth.month).padStart(2, '0')}`;
  const [row] = await em.execute<{ last_value: number }[]>(
    `insert into document_counter (prefix, year_month, last_value) values (?, ?, 1)
     on conflict (prefix, year_month) do update set last_value = document_counter.last_value + 1
     returning last_value`,
    [prefix, key],
  );
  return formatDocumentNumber(prefix, yearMonth, Number(row!.last_value));
}
