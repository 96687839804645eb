import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { email, oneOf, optionalText, parseInput, text } from '../../kernel/input-rules.js';
import { businessNumberField } from '../../kernel/business-number/business-number-field.js';
import { parseRate } from '../../kernel/money/rate.js';
import { PartnerEntityType } from '../../kernel/settlement-types.js';
import type { CreateAdvertiserInput, CreatePartnerInput } from './partner.inputs.js';
import { Partner } from './partner.entity.js';

const partnerRules = z.object({
  entityType: oneOf(PartnerEntityType),
  // The lens subgraph's account id (federation key): digits, as lens issues them.
  accountId: optionalText(30).refine((id) => id === null || /^[1-9]\d{0,29}$/.test(id), {
    error: 'must be 1-30 digits, the first 1-9.',
  }),
  name: text(),
  email: email(),
  // Stored as its 10 digits; a bad check digit is a 400 INVALID_BUSINESS_NUMBER, as everywhere.
  businessNumber: businessNumberField.nullish().transform((value) => value ?? null),
  bankName: optionalText(),
  accountNumber: optionalText(50),
  accountHolder: optionalText(),
});

const advertiserRules = z.object({ name: text(), email: email() });

/** Partners and advertisers; the only writer of `partner` and `advertiser`. */
export class PartnerService {
  async createPartner(em: EntityManager, input: CreatePartnerInput): Promise<Partner> {
    const rules = parseInput(partnerRules, {
      entityType: input.entityType,
      accountId: input.accountId,
      name: input.name,
      email: input.email,
      businessNumber: input.businessNumber,
      bankName: input.bankName,
      accountNumber: input.accountNumber,
      accountHolder: input.accountHolder,
    });
    const partner = em.create(Partner, {
      ...rules,
      commissionRate:
        input.commissionRate === null || input.commissionRate === undefined
          ? null
          : parseRate(input.commissionRate, 'commissionRate'),
    });
    await em.flush();
    return partner;
  }

  async createAdvertiser(em: EntityManager, input: CreateAdvertiserInput): Promise<Advertiser> {
    const advertiser = em.create(
      Advertiser,
      parseInput(advertiserRules, { name: input.name, email: input.email }),
    );
    await em.flush();
    return advertiser;
  }
}
