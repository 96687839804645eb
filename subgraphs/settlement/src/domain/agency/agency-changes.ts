import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import {
  appendChange,
  changedFields,
  type ChangeRecord,
} from '../../journal/audit/change-audit.js';
import type { Principal } from '../../kernel/principal.js';
import { Agency } from './agency.entity.js';
import { readAgencyChanges, readNewAgency, type AgencyInputValues } from './agency-rules.js';
import { agencySnapshot, type AgencyService } from './agency.service.js';

/** An entry of the agency's change audit (DESIGN S8), in the change's transaction. */
const appendAgencyChange = (
  tx: EntityManager,
  id: string,
  action: string,
  actor: Principal,
  change: Pick<ChangeRecord, 'before' | 'after'>,
) => appendChange(tx, { entityType: 'AGENCY', entityId: id, action, actor, ...change });

const duplicateCode = (code: string) =>
  new PlatformError(
    'CONFLICT',
    `Another agency already has the code ${code} (codes ignore case).`,
    {
      field: 'code',
    },
  );

/**
 * Runs `work` in a transaction of its own fork and answers 409 when it ran into the unique index
 * on lower(code): two concurrent creates (or renames) with one code both pass the look-up before
 * either commits, and the index lets exactly one of them through.
 */
async function uniqueCode<T>(
  em: EntityManager,
  code: string | undefined,
  work: (tx: EntityManager) => Promise<T>,
) {
  try {
    return await em.fork({ clear: true }).transactional(work);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException && code) throw duplicateCode(code);
    throw error;
  }
}

/**
 * Agency create, update and deactivation (spec 4.4), each one transaction with its change-audit
 * entry (who, when, before, after; DESIGN S8). The only writer of `agency`.
 */
export class AgencyChanges {
  constructor(private readonly agencies: AgencyService) {}

  /** SUPER_ADMIN only (declared on the resolver); active, never the default. */
  async create(em: EntityManager, actor: Principal, input: AgencyInputValues): Promise<Agency> {
    const values = readNewAgency(input);
    const id = await uniqueCode(em, values.code, async (tx) => {
      if (await tx.getRepository(Agency).findByCode(values.code)) throw duplicateCode(values.code);
      const agency = tx.create(Agency, { ...values, isDefault: false, isActive: true });
      await tx.flush();
      await appendAgencyChange(tx, agency.id, 'CREATED', actor, {
        after: agencySnapshot(agency),
      });
      return agency.id;
    });
    return em.findOneOrFail(Agency, { id }, { refresh: true });
  }

  /** The given fields only; never isActive (not an input). Nothing to change writes nothing. */
  async update(
    em: EntityManager,
    actor: Principal,
    id: string,
    input: AgencyInputValues,
  ): Promise<Agency> {
    const values = readAgencyChanges(input);
    await this.agencies.get(em, actor, id);
    await uniqueCode(em, values.code, async (tx) => {
      const agency = await tx.getRepository(Agency).lock(id, 'update');
      if (!agency) throw new PlatformError('NOT_FOUND', `Agency ${id} was not found.`);
      if (values.code) {
        const holder = await tx.getRepository(Agency).findByCode(values.code);
        if (holder && holder.id !== agency.id) throw duplicateCode(values.code);
      }
      const before = agencySnapshot(agency);
      const change = changedFields(before, { ...before, ...values });
      if (!change) return;
      tx.assign(agency, values);
      await tx.flush();
      await appendAgencyChange(tx, id, 'UPDATED', actor, change);
    });
    return em.findOneOrFail(Agency, { id }, { refresh: true });
  }

  /**
   * Soft: isActive false, every settlement, invoice and audit entry stays; new campaigns and
   * quotations for it are refused (409). The default agency holds the rows whose agencyId is
   * null, so it cannot be deactivated (409). Deactivating an inactive agency changes nothing.
   */
  deactivate(em: EntityManager, actor: Principal, id: string): Promise<Agency> {
    return this.setActive(em, actor, id, false);
  }

  /**
   * The way back (issue 23 item 6): an inactive agency active again, audited REACTIVATED; new
   * campaigns and quotations for it are allowed again. An active agency changes nothing.
   */
  reactivate(em: EntityManager, actor: Principal, id: string): Promise<Agency> {
    return this.setActive(em, actor, id, true);
  }

  private async setActive(
    em: EntityManager,
    actor: Principal,
    id: string,
    active: boolean,
  ): Promise<Agency> {
    await this.agencies.get(em, actor, id);
    await em.fork({ clear: true }).transactional(async (tx) => {
      const agency = await tx.getRepository(Agency).lock(id, 'update');
      if (!agency) throw new PlatformError('NOT_FOUND', `Agency ${id} was not found.`);
      if (!active && agency.isDefault) {
        throw new PlatformError(
          'CONFLICT',
          `Agency ${id} is the default agency (settlements without an agency belong to it); it ` +
            'cannot be deactivated.',
        );
      }
      if (agency.isActive === active) return;
      agency.isActive = active;
      await tx.flush();
      await appendAgencyChange(tx, id, active ? 'REACTIVATED' : 'DEACTIVATED', actor, {
        before: { isActive: !active },
        after: { isActive: active },
      });
    });
    return em.findOneOrFail(Agency, { id }, { refresh: true });
  }
}
