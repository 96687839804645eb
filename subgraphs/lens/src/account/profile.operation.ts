import { Field, InputType, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type { AccountRef, AccountSummary } from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput, parseOperationInput } from './account-ref.js';

export enum ProfileDetail {
  standard = 'standard',
  extended = 'extended',
}
registerEnumType(ProfileDetail, { name: 'ProfileDetail' });

@InputType()
export class AccountsProfileInput {
  @Field(() => AccountRefInput) accountRef!: AccountRefInput;
  @Field(() => ProfileDetail, { nullable: true, defaultValue: ProfileDetail.standard })
  detail?: ProfileDetail;
}

const profileInput = z.strictObject({
  accountRef: accountRefSchema,
  detail: z
    .enum(['standard', 'extended'])
    .nullish()
    .transform((d) => d ?? 'standard'),
});

export interface ProfileInput {
  accountRef: AccountRef;
  detail: 'standard' | 'extended';
}

export const profileOperation: OperationDefinition<ProfileInput> = {
  name: 'accounts.profile',
  price: { base: 1, perItem: 0 },
  parseInput: (raw) => parseOperationInput(profileInput, raw),
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const profile = await upstream.profile(input.accountRef, input.detail);
    return {
      data: { ...profile },
      itemCount: 0,
      observedAccounts: [profile as AccountSummary],
    };
  },
};
