import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformError } from '@campaign/schema';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { parseRate } from '../money/rate.js';
import { isPartnerEntityType } from '../settlement/settlement-types.js';
import type { CreateAdvertiserInput, CreatePartnerInput } from './partner.inputs.js';
import { Partner } from './partner.entity.js';
import { optionalText, requireEmail, requireText } from './text-rules.js';

export class PartnerService {
  async createPartner(em: EntityManager, input: CreatePartnerInput): Promise<Partner> {
    if (!isPartnerEntityType(input.entityType))
      throw new PlatformError('INVALID_REQUEST', 'entityType is not known.');
    const accountId = optionalText(input.accountId, 'accountId', 30);
    if (accountId !== null && !/^[1-9]\d{0,29}$/.test(accountId)) {
      throw new PlatformError('INVALID_REQUEST', 'accountId must be 1-30 digits, the first 1-9.');
    }
    const partner = em.create(Partner, {
      name: requireText(input.name, 'name'),
      entityType: input.entityType,
      commissionRate:
        input.commissionRate === null || input.commissionRate === undefined
          ? null
          : parseRate(input.commissionRate, 'commissionRate'),
      email: requireEmail(input.email),
      bankName: optionalText(input.bankName, 'bankName'),
      accountNumber: optionalText(input.accountNumber, 'accountNumber', 50),
      accountHolder: optionalText(input.accountHolder, 'accountHolder'),
      accountId,
    });
    await em.flush();
    return partner;
  }

  async createAdvertiser(em: EntityManager, input: CreateAdvertiserInput): Promise<Advertiser> {
    const advertiser = em.create(Advertiser, {
      name: requireText(input.name, 'name'),
      email: requireEmail(input.email),
    });
    await em.flush();
    return advertiser;
  }
}
