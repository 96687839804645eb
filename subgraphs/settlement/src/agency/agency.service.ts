import type { EntityManager } from '@mikro-orm/postgresql';
import { Agency } from './agency.entity.js';

export class AgencyService {
  /** The default agency's id; rows whose agency_id is null belong to it. */
  async defaultAgencyId(em: EntityManager): Promise<string> {
    const found = await em.findOne(Agency, { isDefault: true });
    return found?.id ?? '0';
  }
}
