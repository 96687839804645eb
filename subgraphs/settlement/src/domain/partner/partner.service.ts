import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { Advertiser } from '../advertiser/advertiser.entity.js';
import { email, oneOf, optionalText, parseInput, text } from '../../kernel/input-rules.js';
import { businessNumberField } from '../../kernel/business-number/business-number-field.js';
import { parseRate } from '../../kernel/money/rate.js';
import { PartnerEntityType } from '../../kernel/settlement-types.js';
import { PlatformError } from '@campaign/schema';
import type {
  CreateAdvertiserInput,
  CreatePartnerInput,
  UpdatePartnerInput,
} from './partner.inputs.js';
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

/** The fields a partner is made of, as createPartner and updatePartner name them. */
const PARTNER_FIELDS = [
  'entityType',
  'accountId',
  'name',
  'email',
  'businessNumber',
  'bankName',
  'accountNumber',
  'accountHolder',
] as const;

const commissionRateOf = (rate: string | null | undefined) =>
  rate === null || rate === undefined ? null : parseRate(rate, 'commissionRate');

const advertiserRules = z.object({ name: text(), email: email() });

/** Partners and advertisers; the only writer of `partner` and `advertiser`. */
export class PartnerService {
  async createPartner(em: EntityManager, input: CreatePartnerInput): Promise<Partner> {
    const rules = parseInput(
      partnerRules,
      Object.fromEntries(PARTNER_FIELDS.map((field) => [field, input[field]])),
    );
    const partner = em.create(Partner, {
      ...rules,
      commissionRate: commissionRateOf(input.commissionRate),
    });
    await em.flush();
    return partner;
  }

  /**
   * updatePartner (issue 23 item 3): the fields sent, by createPartner's rules (a required field
   * cannot be cleared); the others kept. An admin records a missing business number this way.
   */
  async updatePartner(em: EntityManager, id: string, input: UpdatePartnerInput): Promise<Partner> {
    const partner = await em.findOne(Partner, { id });
    if (!partner) throw new PlatformError('NOT_FOUND', `Partner ${id} does not exist.`);
    const sent = PARTNER_FIELDS.filter((field) => input[field] !== undefined);
    const checked = parseInput(
      partnerRules.partial(),
      Object.fromEntries(sent.map((field) => [field, input[field]])),
    );
    // Only what was sent: a field left out is kept as it is.
    const rules = Object.fromEntries(sent.map((field) => [field, checked[field]]));
    em.assign(partner, {
      ...rules,
      ...(input.commissionRate !== undefined
        ? { commissionRate: commissionRateOf(input.commissionRate) }
        : {}),
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
