import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { appendChange, changedFields } from '../../journal/audit/change-audit.js';
import type { Principal } from '../../kernel/principal.js';
import { QUOTATION_ID } from '../../kernel/ids.js';
import { nextPrefixedId } from '../../kernel/numbering/prefixed-id.repository.js';
import {
  concurrentQuotationChange,
  InvalidQuotationMoveError,
} from '../../domain/quotation/quotation-errors.js';
import type { QuotationExecution } from './quotation-execution.js';
import { linesOf, writeLines } from '../../domain/quotation/quotation-lines.js';
import {
  canMoveQuotation,
  isEditable,
  type QuotationStatus,
} from '../../domain/quotation/quotation-moves.js';
import {
  readQuotation,
  type QuotationInputValues,
} from '../../domain/quotation/quotation-rules.js';
import {
  quotationSnapshot,
  type QuotationService,
  type ResolvedQuotation,
} from '../../domain/quotation/quotation.service.js';
import { Quotation } from '../../domain/quotation/quotation.entity.js';

/** What a resolved body sets on the quotation row, on create and update alike. */
const storedFields = (q: ResolvedQuotation) => ({
  advertiserId: q.advertiserId,
  agencyId: q.agencyId,
  title: q.title,
  validUntil: q.validUntil,
  supplyAmount: q.supplyAmount,
  vatAmount: q.vatAmount,
  totalAmount: q.totalAmount,
});

/**
 * Quotation create, update and status moves (spec 4.5, S14), each one transaction in a fork of
 * its own with its change-audit entry. Every change after create claims the version it read
 * (optimistic lock), so of concurrent changes one wins and the others write nothing. The only
 * writer of `quotation` and `quotation_line` with QuotationExecution.
 */
export class QuotationChanges {
  constructor(
    private readonly quotations: QuotationService,
    private readonly execution: QuotationExecution,
  ) {}

  /** A DRAFT; 201 on REST. A bad body is a 400 before anything is read or written. */
  async create(
    em: EntityManager,
    actor: Principal,
    input: QuotationInputValues,
  ): Promise<Quotation> {
    const draft = readQuotation(input);
    const id = await em.fork({ clear: true }).transactional(async (tx) => {
      const q = await this.quotations.resolve(tx, actor, draft);
      const id = await nextPrefixedId(tx, QUOTATION_ID);
      const row = { id, status: 'DRAFT' as const, ...storedFields(q), version: 1 };
      await tx.insert(Quotation, row);
      await writeLines(tx, id, q.lines);
      await appendChange(tx, {
        entityType: 'QUOTATION',
        entityId: id,
        action: 'CREATED',
        actor,
        after: quotationSnapshot(row, q.lines),
      });
      return id;
    });
    return em.findOneOrFail(Quotation, { id }, { refresh: true });
  }

  /** Replaces fields and lines of a DRAFT; any other status is a 409 (spec 7). */
  async update(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: QuotationInputValues,
  ): Promise<Quotation> {
    const draft = readQuotation(input);
    await em.fork({ clear: true }).transactional(async (tx) => {
      const current = await this.quotations.get(tx, actor, id, true);
      if (!isEditable(current.status)) {
        throw new PlatformError(
          'CONFLICT',
          `Quotation ${id} is ${current.status}; only a DRAFT quotation can be updated.`,
          { currentStatus: current.status },
        );
      }
      const q = await this.quotations.resolve(tx, actor, draft);
      const values = storedFields(q);
      const before = quotationSnapshot(current, await linesOf(tx, id));
      if (!(await tx.getRepository(Quotation).claim(id, current.version, values))) {
        throw concurrentQuotationChange(id);
      }
      await writeLines(tx, id, q.lines);
      const after = quotationSnapshot({ ...values, status: current.status }, q.lines);
      const change = changedFields(before, after) ?? { before: {}, after: {} };
      await appendChange(tx, {
        entityType: 'QUOTATION',
        entityId: id,
        action: 'UPDATED',
        actor,
        ...change,
      });
    });
    return em.findOneOrFail(Quotation, { id }, { refresh: true });
  }

  /** PATCH status: EXECUTED runs execute, CANCELLED is DELETE, other moves by the table. */
  changeStatus(
    em: EntityManager,
    actor: Principal,
    id: string,
    to: QuotationStatus,
  ): Promise<Quotation> {
    return to === 'EXECUTED' ? this.execution.execute(em, actor, id) : this.move(em, actor, id, to);
  }

  /** DELETE: soft, the quotation becomes CANCELLED (from any non-terminal status). */
  cancel(em: EntityManager, actor: Principal, id: string): Promise<Quotation> {
    return this.move(em, actor, id, 'CANCELLED');
  }

  private async move(
    em: EntityManager,
    actor: Principal,
    id: string,
    to: QuotationStatus,
  ): Promise<Quotation> {
    await em.fork({ clear: true }).transactional(async (tx) => {
      const current = await this.quotations.get(tx, actor, id, true);
      if (!canMoveQuotation(current.status, to)) {
        throw new InvalidQuotationMoveError(id, current.status, to);
      }
      if (!(await tx.getRepository(Quotation).claim(id, current.version, { status: to }))) {
        throw concurrentQuotationChange(id);
      }
      await appendChange(tx, {
        entityType: 'QUOTATION',
        entityId: id,
        action: to === 'CANCELLED' ? 'CANCELLED' : 'STATUS_CHANGED',
        actor,
        before: { status: current.status },
        after: { status: to },
      });
    });
    return em.findOneOrFail(Quotation, { id }, { refresh: true });
  }
}
