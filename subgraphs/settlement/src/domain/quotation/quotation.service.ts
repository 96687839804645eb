import { createHash } from 'node:crypto';
import type { ObjectQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { PlatformError } from '@campaign/schema';
import { QUOTATION_ID } from '../../kernel/ids.js';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import type { Agency } from '../agency/agency.entity.js';
import type { AgencyService } from '../agency/agency.service.js';
import type { Principal } from '../../kernel/principal.js';
import { agencyCondition, agencyInScope, scopeOf } from '../../kernel/scope.js';
import { parseInput } from '../../kernel/input-rules.js';
import type { Decimal } from 'decimal.js';
import { formatMoney } from '../../kernel/money/money.js';
import { formatRate } from '../../kernel/money/rate.js';
import { allOf, positionPage, type Page } from '../../kernel/paging.js';
import { Partner } from '../partner/partner.entity.js';
import { dateBound, given, idFilter } from '../settlement/list-args.js';
import type { QuotationDraft } from './quotation-rules.js';
import type { QuotationStatus } from './quotation-moves.js';
import { Quotation } from './quotation.entity.js';
import type { QuotationFields } from './quotation.repository.js';

const QUOTATION_CURSOR = 'q1';

/** A body whose references were found: its agency and advertiser, as the caller may use them. */
export interface ResolvedQuotation extends QuotationDraft {
  agency: Agency;
  advertiser: Advertiser;
}

/** A line as its fingerprint sees it. */
interface LineFacts {
  partnerId: string;
  deliverable: string;
  price: Decimal;
  commissionRate: Decimal | null;
}

/**
 * What a quotation is audited as (DESIGN S8): its fields, amounts, number of lines and a digest
 * of the lines (an edit of one deliverable shows as a new digest without copying 1,000 lines).
 */
export const quotationSnapshot = (
  q: QuotationFields,
  lines: readonly LineFacts[],
): Record<string, unknown> => ({
  status: q.status,
  advertiserId: q.advertiserId,
  agencyId: q.agencyId,
  title: q.title,
  validUntil: q.validUntil,
  supplyAmount: formatMoney(q.supplyAmount),
  vatAmount: formatMoney(q.vatAmount),
  totalAmount: formatMoney(q.totalAmount),
  lineCount: lines.length,
  linesDigest: createHash('sha256')
    .update(
      JSON.stringify(
        lines.map((l) => [
          l.partnerId,
          l.deliverable,
          formatMoney(l.price),
          l.commissionRate === null ? null : formatRate(l.commissionRate),
        ]),
      ),
    )
    .digest('hex')
    .slice(0, 16),
});

export interface RawQuotationFilter {
  status?: QuotationStatus | null;
  advertiserId?: string | null;
  agencyId?: string | null;
  from?: string | null;
  to?: string | null;
}

export const quotationFilterRules = z.object({
  status: given(z.custom<QuotationStatus>()),
  advertiserId: given(idFilter),
  agencyId: given(idFilter),
  from: given(dateBound('from')),
  to: given(dateBound('to')),
});

/**
 * Quotations as callers see them (spec 4.5, S9): an agency admin sees its agency's only
 * (agencyId null counting as the default agency); anything else is a 404 like an unknown id.
 * Bodies are read and their references found here; changes are QuotationChanges.
 */
export class QuotationService {
  constructor(private readonly agencies: AgencyService) {}

  async get(
    em: EntityManager,
    principal: Principal,
    id: string,
    refresh = false,
  ): Promise<Quotation> {
    const quotation = QUOTATION_ID.pattern.test(id)
      ? await em.findOne(Quotation, { id }, { refresh })
      : null;
    const defaultAgencyId = await this.agencies.defaultAgencyId(em);
    if (!quotation || !agencyInScope(scopeOf(principal), defaultAgencyId, quotation.agencyId)) {
      throw new PlatformError('NOT_FOUND', `Quotation ${id} was not found.`);
    }
    return quotation;
  }

  /** Newest first; the scope always applies, so a cursor carries no authority. */
  async list(
    em: EntityManager,
    principal: Principal,
    filter: RawQuotationFilter | null | undefined,
    cursor: string | null | undefined,
    limit: number | null | undefined,
  ): Promise<Page<Quotation>> {
    return positionPage(
      QUOTATION_CURSOR,
      cursor,
      limit,
      this.newestFirst(em, principal, filter),
      (last) => last.idNumber,
    );
  }

  /** The quotations of `filter` the principal may see, newest first (list's page reader). */
  private newestFirst(
    em: EntityManager,
    principal: Principal,
    filter: RawQuotationFilter | null | undefined,
  ) {
    return async (after: string | null, pageSize: number) => {
      const f = parseInput(quotationFilterRules, { ...filter });
      const defaultAgencyId = await this.agencies.defaultAgencyId(em);
      const scope = scopeOf(principal);
      const conditions: ObjectQuery<Quotation>[] = [];
      const ofAgency = (id: string) =>
        agencyCondition(id, defaultAgencyId) as ObjectQuery<Quotation>;
      if (scope.agencyId !== null) conditions.push(ofAgency(scope.agencyId));
      if (f.status) conditions.push({ status: f.status });
      if (f.advertiserId) conditions.push({ advertiserId: f.advertiserId });
      if (f.agencyId) conditions.push(ofAgency(f.agencyId));
      if (f.from) conditions.push({ createdAt: { $gte: f.from.at } });
      if (f.to)
        conditions.push({ createdAt: f.to.inclusive ? { $lte: f.to.at } : { $lt: f.to.at } });
      return em.getRepository(Quotation).newestFirst(allOf(conditions), after, pageSize);
    };
  }

  /**
   * Finds what a body read by `readQuotation` names, in the order a client fixes them: the
   * advertiser and every line's partner (unknown: 400 naming the field), then
   * the agency (outside an agency admin's own: 404; unknown: 400; inactive: 409).
   */
  async resolve(
    em: EntityManager,
    principal: Principal,
    draft: QuotationDraft,
  ): Promise<ResolvedQuotation> {
    const advertiser = await em.findOne(Advertiser, { id: draft.advertiserId });
    if (!advertiser) {
      throw new PlatformError(
        'INVALID_REQUEST',
        `advertiserId: advertiser ${draft.advertiserId} does not exist.`,
        { field: 'advertiserId' },
      );
    }
    const partnerIds = [...new Set(draft.lines.map((line) => line.partnerId))];
    const found = await em.find(Partner, { id: { $in: partnerIds } }, { fields: ['id'] });
    const known = new Set(found.map((partner) => partner.id));
    const missing = draft.lines.findIndex((line) => !known.has(line.partnerId));
    if (missing >= 0) {
      const field = `lines.${missing}.partnerId`;
      throw new PlatformError(
        'INVALID_REQUEST',
        `${field}: partner ${draft.lines[missing]!.partnerId} does not exist.`,
        { field },
      );
    }
    // No agencyId: the default agency, or an agency admin's own (as createCampaign reads it).
    const requested = draft.agencyId ?? scopeOf(principal).agencyId;
    const agency = await this.agencies.forNewBusiness(em, principal, requested);
    return { ...draft, agencyId: this.agencies.storedId(agency), agency, advertiser };
  }
}
