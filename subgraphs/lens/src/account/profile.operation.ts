import { lensOperations } from '@campaign/schema';
import { defineOperation } from '../operation/operation-definition.js';
import type {
  AccountSummary,
  ExtendedProfile,
  ExtendedProfileFields,
} from '../upstream/upstream.port.js';
import { summaryOf } from './observed.js';

/** The fields `detail: extended` adds to the summary (names are ours: the spec leaves them open). */
function extendedFieldsOf(profile: Partial<ExtendedProfile>): ExtendedProfileFields {
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
export const profileOperation = defineOperation(lensOperations['accounts.profile'], {
  price: { base: 1, perItem: 0 },
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
});
