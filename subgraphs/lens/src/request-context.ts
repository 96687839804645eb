import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountObservation } from './account/account-observation.entity.js';
import type { LensServices } from './services.js';

/** What a request makes on first use, shared by every copy of its context. */
interface Lazy {
  em?: EntityManager;
  accountLoader?: DataLoader<string, AccountObservation | null>;
}

/**
 * The per-request parts of the lens context that most requests never use: the EntityManager
 * fork and the account dataloader, made on first use (issue 27: the billed call, the replay and
 * the status read run prepared statements only). The getters live on the prototype because
 * Apollo Server copies the context's own properties for each operation (`cloneObject`), which
 * would run own getters at once; the copy shares the `lazy` holder, so a fork is still made once.
 */
export class LazyRequestParts {
  private readonly lazy: Lazy = {};

  constructor(
    private readonly fork: () => EntityManager,
    private readonly observations: LensServices['observations'],
  ) {}

  /** One EntityManager fork per request, made on first use. */
  get em(): EntityManager {
    return (this.lazy.em ??= this.fork());
  }

  /** One dataloader per request, made on first use. */
  get accountLoader(): DataLoader<string, AccountObservation | null> {
    return (this.lazy.accountLoader ??= new DataLoader((ids: readonly string[]) =>
      this.observations.findMany(this.em, ids),
    ));
  }
}
