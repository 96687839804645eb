import { Field, InputType, registerEnumType } from 'type-graphql';
import { z } from 'zod';
import type { OperationDefinition } from '../operation/operation-definition.js';
import type {
  AccountRef,
  AccountSummary,
  ExtendedProfile,
  ExtendedProfileFields,
} from '../upstream/upstream.port.js';
import { accountRefSchema, AccountRefInput, parseOperationInput } from './account-ref.js';
import { summaryOf } from './observed.js';

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

/** The fields `detail: extended` adds to the summary (names are ours: the spec leaves them open). */
export function extendedFieldsOf(profile: Partial<ExtendedProfile>): ExtendedProfileFields {
  return {
    externalUrl: profile.externalUrl ?? null,
    profilePictureUrl: profile.profilePictureUrl ?? null,
    isBusinessAccount: profile.isBusinessAccount ?? null,
    businessEmail: profile.businessEmail ?? null,
    businessPhone: profile.businessPhone ?? null,
    pronouns: profile.pronouns ?? null,
    highlightCount: profile.highlightCount ?? null,
    reelCount: profile.reelCount ?? null,
  };
}

/**
 * accounts.profile: the Account summary (lens spec 2.3); with `detail: extended` also the
 * ExtendedProfileFields, and never recent posts. A private account's profile is readable.
 */
export const profileOperation: OperationDefinition<ProfileInput> = {
  name: 'accounts.profile',
  price: { base: 1, perItem: 0 },
  parseInput: (raw) => parseOperationInput(profileInput, raw),
  maxItems: () => 0,
  async execute(input, { upstream }) {
    const profile = await upstream.profile(input.accountRef, input.detail);
    const summary = summaryOf(profile as AccountSummary);
    return {
      data:
        input.detail === 'extended'
          ? { ...summary, ...extendedFieldsOf(profile as ExtendedProfile) }
          : { ...summary },
      itemCount: 0,
      observedAccounts: [summary],
    };
  },
};
