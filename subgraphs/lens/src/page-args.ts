import { ArgsType, Field, Int } from 'type-graphql';

/**
 * `first` and `after`, the paging arguments of the lens lists, declared once (in the order the
 * committed SDL has always listed them).
 */
@ArgsType()
export class LensPageArgs {
  @Field(() => String, { nullable: true }) after?: string;
  @Field(() => Int, { nullable: true }) first?: number;
}

/** The page a lens list service takes: an argument not given is null. */
export const pageOf = ({ first, after }: LensPageArgs) => ({
  first: first ?? null,
  after: after ?? null,
});
