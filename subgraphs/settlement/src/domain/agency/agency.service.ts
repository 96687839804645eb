import type { ObjectQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { SERIAL_ID } from '../../kernel/ids.js';
import type { Principal } from '../../kernel/principal.js';
import { agencyInScope, scopeOf } from '../../kernel/scope.js';
import { allOf, positionPage, type Page } from '../../kernel/paging.js';
import { Agency } from './agency.entity.js';
import type { AgencySettlementAccount } from './agency.inputs.js';

const AGENCY_CURSOR = 'a1';

/** What an agency is audited as (DESIGN S8): its fields of spec 2.4. */
export const agencySnapshot = (agency: Agency): Record<string, unknown> => ({
  name: agency.name,
  code: agency.code,
  businessName: agency.businessName,
  businessNumber: agency.businessNumber,
  representativeName: agency.representativeName,
  bankName: agency.bankName,
  accountNumber: agency.accountNumber,
  accountHolder: agency.accountHolder,
  email: agency.email,
  isActive: agency.isActive,
});

/**
 * Agencies as callers see them (spec 4.4, S9): a super admin sees every agency; an admin whose
 * token carries an agencyId sees that agency only, and any other is a 404 like an unknown one.
 * Changes are AgencyChanges (agency-changes.ts).
 */
export class AgencyService {
  /** The default agency's id; rows whose agency_id is null belong to it. */
  async defaultAgencyId(em: EntityManager): Promise<string> {
    // Outside a transaction, one prepared statement (issue 14); inside, the transaction's view.
    if (!em.isInTransaction()) return (await em.getRepository(Agency).defaultId()) ?? '0';
    const found = await em.findOne(Agency, { isDefault: true });
    return found?.id ?? '0';
  }

  async get(em: EntityManager, principal: Principal, id: string): Promise<Agency> {
    const agency = SERIAL_ID.test(id) ? await em.findOne(Agency, { id }) : null;
    return this.visibleOr404(principal, agency, `Agency ${id} was not found.`);
  }

  async getDefault(em: EntityManager, principal: Principal): Promise<Agency> {
    const agency = await em.findOne(Agency, { isDefault: true });
    return this.visibleOr404(principal, agency, 'The default agency was not found.');
  }

  async getByCode(em: EntityManager, principal: Principal, code: string): Promise<Agency> {
    const agency = await em.getRepository(Agency).findByCode(code);
    return this.visibleOr404(principal, agency, `No agency has the code ${code}.`);
  }

  /**
   * The account advertiser invoices of this agency snapshot as their deposit account: the three
   * fields `bankAccountOf` copies into an invoice (every one required on an agency).
   */
  async settlementAccount(
    em: EntityManager,
    principal: Principal,
    id: string,
  ): Promise<AgencySettlementAccount> {
    const agency = await this.get(em, principal, id);
    const { bankName, accountNumber, accountHolder } = agency;
    return { agencyId: agency.id, agencyName: agency.name, bankName, accountNumber, accountHolder };
  }

  /** By id, inactive agencies included; `isActive` filters. */
  async list(
    em: EntityManager,
    principal: Principal,
    filter: { isActive?: boolean | null } | null | undefined,
    cursor: string | null | undefined,
    limit: number | null | undefined,
  ): Promise<Page<Agency>> {
    const read = (after: string | null, pageSize: number) => {
      const conditions: ObjectQuery<Agency>[] = [];
      const scope = scopeOf(principal);
      if (scope.agencyId !== null) conditions.push({ id: scope.agencyId });
      if (typeof filter?.isActive === 'boolean') conditions.push({ isActive: filter.isActive });
      return em.getRepository(Agency).byId(allOf(conditions), after, pageSize);
    };
    return positionPage(AGENCY_CURSOR, cursor, limit, read, (last) => last.id);
  }

  /**
   * The agency a new campaign (or quotation) may go to: null means the default agency. Unknown is
   * a 400 naming `field`, outside an agency admin's own agency a 404 (S9), inactive a 409
   * (deactivation keeps history but takes no new business). Inside a transaction the row stays
   * share-locked, so a concurrent deactivation waits for the new rows to commit.
   */
  async forNewBusiness(
    tx: EntityManager,
    principal: Principal,
    agencyId: string | null,
    field = 'agencyId',
  ): Promise<Agency> {
    const defaultAgencyId = await this.defaultAgencyId(tx);
    if (!agencyInScope(scopeOf(principal), defaultAgencyId, agencyId)) {
      throw new PlatformError('NOT_FOUND', `Agency ${agencyId ?? defaultAgencyId} was not found.`);
    }
    const id = agencyId ?? defaultAgencyId;
    const agency = !SERIAL_ID.test(id)
      ? null
      : tx.isInTransaction()
        ? await tx.getRepository(Agency).lock(id, 'share')
        : await tx.findOne(Agency, { id }, { refresh: true });
    if (!agency) {
      throw new PlatformError('INVALID_REQUEST', `${field}: agency ${id} does not exist.`, {
        field,
      });
    }
    if (!agency.isActive) {
      throw new PlatformError(
        'CONFLICT',
        `Agency ${agency.id} (${agency.code}) is inactive: it keeps its history but takes no ` +
          'new campaigns or quotations.',
        { agencyId: agency.id },
      );
    }
    return agency;
  }

  /** The id a row stores for `agency`: null for the default agency (spec 2.3). */
  storedId(agency: Agency): string | null {
    return agency.isDefault ? null : agency.id;
  }

  private visibleOr404(principal: Principal, agency: Agency | null, message: string): Agency {
    const scope = scopeOf(principal);
    if (!agency || (scope.agencyId !== null && agency.id !== scope.agencyId)) {
      throw new PlatformError('NOT_FOUND', message);
    }
    return agency;
  }
}
