import { Ctx, Query, Resolver } from 'type-graphql';
import type { LensContext } from '../context.js';
import { AvailableOperation } from './available-operation.type.js';

@Resolver()
export class AvailableOperationsResolver {
  @Query(() => [AvailableOperation], {
    description:
      "The data operations the caller's credential may call: not switched off in this " +
      'deployment, in its plan and permissions; in the order of lens spec section 4. Free.',
  })
  async availableOperations(@Ctx() context: LensContext): Promise<AvailableOperation[]> {
    const tenant = await context.tenant();
    return context.services.catalogue.offeredTo(tenant).map((offer) =>
      Object.assign(new AvailableOperation(), {
        name: offer.name,
        priceBase: offer.price.base,
        pricePerItem: offer.price.perItem,
      }),
    );
  }
}
