import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../kernel/principal.js';
import type { MoveTrigger } from '../domain/settlement/settlement-moves.js';
import { withSettlement, type SettlementStep } from './settlement-step.js';
import type { Settlement } from '../domain/settlement/settlement.entity.js';
import type { WorkflowServices } from './workflow-services.js';

/**
 * How a trigger is called (resolvers, StatusChange): on settlement `id`, by `actor`, with its
 * optional body and, for a move that more than one path makes, the path it came by.
 */
export type Trigger<I> = (
  em: EntityManager,
  actor: Principal,
  id: string,
  input?: I | null,
  via?: MoveTrigger,
) => Promise<Settlement>;

/** A family of triggers of spec section 3, each declared with `trigger(read, run)`. */
export abstract class TriggerFamily {
  constructor(protected readonly services: WorkflowServices) {}

  /**
   * One trigger: its body is read first (`read`: a bad body changes nothing), then `run` works
   * in one settlement step: one transaction, the settlement read in the actor's scope (404), the
   * trigger's checks, the claim and the writes, each by its table's service.
   */
  protected trigger<I, B extends { adminNotes?: string | null }>(
    read: (input?: I | null) => B,
    run: (step: SettlementStep, body: B, via?: MoveTrigger) => Promise<void>,
  ): Trigger<I> {
    return (em, actor, id, input, via) => {
      const body = read(input);
      return withSettlement(em, this.services.settlements, actor, id, async (step) => {
        step.withAdminNotes(body.adminNotes);
        await run(step, body, via);
        await step.storeAdminNotes();
      });
    };
  }
}
