import type { EntityManager } from '@mikro-orm/postgresql';
import type { Decimal } from 'decimal.js';
import { PlatformError } from '@campaign/schema';
import type { AgencyService } from '../agency/agency.service.js';
import { appendAudit } from '../../journal/audit/audit.js';
import { inScope, scopeOf } from '../../kernel/scope.js';
import type { Principal } from '../../kernel/principal.js';
import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import { SETTLEMENT_ID } from '../../kernel/ids.js';
import { nextPrefixedId } from '../../kernel/numbering/prefixed-id.repository.js';
import { Partner } from '../partner/partner.entity.js';
import { calculateSettlementAmounts, type SettlementAmounts } from './settlement-amounts.js';
import { SETTLEMENT_BY_ID, readRows } from './settlement-reads.repository.js';
import {
  settlementDetail,
  type DetailRelation,
  type SettlementDetail,
} from './settlement-detail.repository.js';
import { Settlement } from './settlement.entity.js';
import type { SettlementType } from '../../kernel/settlement-types.js';

/** What the scope rule reads of a settlement. */
type ScopedRow = Pick<Settlement, 'agencyId' | 'partnerId'>;
const same = <T extends ScopedRow>(row: T): ScopedRow => row;

/** What a settlement is made from: the uploaded campaign's terms. */
export interface CampaignTerms {
  campaignId: string;
  partnerId: string;
  agencyId: string | null;
  price: Decimal;
  commissionRate: Decimal | null;
  settlementType: SettlementType;
}

/** The calculated amounts, as the decimal strings audit entries and column updates carry. */
export const settlementMoney = (a: SettlementAmounts) => ({
  commissionRate: formatRate(a.commissionRate),
  commissionAmount: formatMoney(a.commissionAmount),
  settlementAmount: formatMoney(a.settlementAmount),
  withholdingTaxRate: formatRate(a.withholdingTaxRate),
  withholdingTaxAmount: formatMoney(a.withholdingTaxAmount),
  payoutAmount: formatMoney(a.payoutAmount),
});

/** Settlement rows: their creation and who may see them. Changes go through SettlementStep. */
export class SettlementService {
  constructor(private readonly agencies: AgencyService) {}

  /**
   * The one settlement of an uploaded campaign, in SETTLEMENT_PENDING with its amounts (spec
   * 2.2) and the partner's bank account as a snapshot.
   */
  async createForCampaign(
    tx: EntityManager,
    campaign: CampaignTerms,
    actor: Principal,
  ): Promise<Settlement> {
    const partner = await tx.findOneOrFail(Partner, { id: campaign.partnerId });
    const amounts = calculateSettlementAmounts({
      campaignPrice: campaign.price,
      settlementType: campaign.settlementType,
      partnerEntityType: partner.entityType,
      campaignCommissionRate: campaign.commissionRate,
      partnerCommissionRate: partner.commissionRate,
    });
    const settlement = tx.create(Settlement, {
      id: await nextPrefixedId(tx, SETTLEMENT_ID),
      campaignId: campaign.campaignId,
      partnerId: campaign.partnerId,
      agencyId: campaign.agencyId,
      campaignPrice: campaign.price,
      ...amounts,
      status: 'SETTLEMENT_PENDING',
      settlementType: campaign.settlementType,
      advertiserInvoiceId: null,
      partnerPayoutId: null,
      invoiceIssuedAt: null,
      invoicePaidAt: null,
      partnerInvoiceReceivedAt: null,
      bankName: partner.bankName,
      accountNumber: partner.accountNumber,
      accountHolder: partner.accountHolder,
      requestedAt: null,
      processedAt: null,
      completedAt: null,
      adminNotes: null,
      version: 1,
    });
    await tx.flush();
    await appendAudit(tx, {
      settlementId: settlement.id,
      action: 'CREATED',
      actor,
      toStatus: 'SETTLEMENT_PENDING',
      toSettlementType: settlement.settlementType,
      details: {
        campaignId: campaign.campaignId,
        campaignPrice: formatMoney(settlement.campaignPrice),
        ...settlementMoney(amounts),
      },
    });
    return settlement;
  }

  /** A settlement the principal may see; anything else is a 404, never a 403 (S9). */
  async get(
    em: EntityManager,
    principal: Principal,
    id: string,
    options: { refresh?: boolean } = {},
  ): Promise<Settlement> {
    return this.visibleOr404(em, principal, id, () => this.byId(em, id, options.refresh), same);
  }

  /**
   * As {@link get}, the row as stored (a plain object, money as decimal text), and the rows of
   * `relations` read by the same statement: one snapshot, so a detail never shows a settlement
   * and a document from different commits. Outside any transaction (issue 27).
   */
  async getStoredDetail(
    em: EntityManager,
    principal: Principal,
    id: string,
    relations: readonly DetailRelation[],
  ): Promise<SettlementDetail> {
    const read = () => settlementDetail(em, id, relations);
    return this.visibleOr404(em, principal, id, read, (detail) => detail.settlement);
  }

  /** `read`'s answer if it is a settlement (`settlementOf` it) the principal may see, else 404. */
  private async visibleOr404<T>(
    em: EntityManager,
    principal: Principal,
    id: string,
    read: () => Promise<T | null>,
    settlementOf: (found: T) => ScopedRow,
  ): Promise<T> {
    const found = SETTLEMENT_ID.pattern.test(id) ? await read() : null;
    if (!found || !(await this.isVisible(em, principal, settlementOf(found)))) {
      throw new PlatformError('NOT_FOUND', `Settlement ${id} was not found.`);
    }
    return found;
  }

  /** Outside a transaction, one prepared statement (issue 14); inside, the transaction's view. */
  private async byId(em: EntityManager, id: string, refresh = false): Promise<Settlement | null> {
    if (em.isInTransaction()) return em.findOne(Settlement, { id }, { refresh });
    const [row] = await readRows(em, SETTLEMENT_BY_ID, [id]);
    return row ?? null;
  }

  private async isVisible(
    em: EntityManager,
    principal: Principal,
    row: ScopedRow,
  ): Promise<boolean> {
    const scope = scopeOf(principal);
    if (scope.agencyId === null && scope.partnerId === null) return true;
    return inScope(scope, await this.agencies.defaultAgencyId(em), row);
  }
}
