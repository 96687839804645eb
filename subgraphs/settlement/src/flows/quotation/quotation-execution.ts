import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { seoulDay } from '../../kernel/seoul-day.js';
import type { AgencyService } from '../../domain/agency/agency.service.js';
import { appendChange } from '../../journal/audit/change-audit.js';
import type { Principal } from '../../kernel/principal.js';
import type { CampaignService } from '../../domain/campaign/campaign.service.js';
import {
  concurrentQuotationChange,
  InvalidQuotationMoveError,
} from '../../domain/quotation/quotation-errors.js';
import { linesOf, linkCampaigns } from '../../domain/quotation/quotation-lines.js';
import { canMoveQuotation } from '../../domain/quotation/quotation-moves.js';
import type { QuotationService } from '../../domain/quotation/quotation.service.js';
import { Quotation } from '../../domain/quotation/quotation.entity.js';

/** Campaign titles are at most 200 characters (their input rule): cut whole characters only. */
export function campaignTitle(quotationTitle: string, deliverable: string): string {
  const chars = Array.from(`${quotationTitle}: ${deliverable}`);
  while (chars.join('').length > 200) chars.pop();
  return chars.join('');
}

/**
 * Execute (spec 4.5, S14): an ACCEPTED quotation becomes EXECUTED and creates one campaign per
 * line, all in one transaction, once. The status move is the claim: of concurrent executes the
 * first takes the row and the others, finding the version moved, answer 409 having created
 * nothing; a later execute finds EXECUTED (terminal) and answers 409 as well.
 */
export class QuotationExecution {
  constructor(
    private readonly quotations: QuotationService,
    private readonly agencies: AgencyService,
    private readonly campaigns: CampaignService,
  ) {}

  async execute(em: EntityManager, actor: Principal, id: string): Promise<Quotation> {
    await em.fork({ clear: true }).transactional(async (tx) => {
      const quotation = await this.quotations.get(tx, actor, id, true);
      if (!canMoveQuotation(quotation.status, 'EXECUTED')) {
        throw new InvalidQuotationMoveError(id, quotation.status, 'EXECUTED');
      }
      const executedAt = new Date();
      // Accepted while valid, executed after: the offer is over (issue 23 item 6).
      if (quotation.validUntil < seoulDay(executedAt)) {
        throw new PlatformError(
          'QUOTATION_EXPIRED',
          `Quotation ${id} was valid until ${quotation.validUntil}; it can no longer be executed. ` +
            'Make a new quotation.',
          { validUntil: quotation.validUntil },
        );
      }
      // A deactivated agency takes no new campaigns (409); its row stays share-locked until commit.
      await this.agencies.forNewBusiness(tx, actor, quotation.agencyId);
      const claimed = await tx
        .getRepository(Quotation)
        .claim(id, quotation.version, { status: 'EXECUTED', executedAt });
      if (!claimed) throw concurrentQuotationChange(id);
      const lines = await linesOf(tx, id);
      const campaignIds = await this.campaigns.createFromQuotation(
        tx,
        quotation,
        lines.map((line) => ({
          partnerId: line.partnerId,
          title: campaignTitle(quotation.title, line.deliverable),
          price: line.price,
          commissionRate: line.commissionRate,
        })),
      );
      await linkCampaigns(tx, id, lines, campaignIds);
      await appendChange(tx, {
        entityType: 'QUOTATION',
        entityId: id,
        action: 'EXECUTED',
        actor,
        before: { status: quotation.status },
        after: { status: 'EXECUTED', campaignIds },
      });
    });
    return em.findOneOrFail(Quotation, { id }, { refresh: true });
  }
}
