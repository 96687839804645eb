import { Resolver, type ClassType } from 'type-graphql';
import { NoReads, operations, type Operation } from './operations.js';
import type { Principal, Role } from '../kernel/principal.js';
import type { SettlementContext } from './context.js';
import { SettlementActionInput } from '../domain/settlement/settlement.inputs.js';
import { Settlement } from '../domain/settlement/settlement.entity.js';
import type { SettlementWorkflow } from '../flows/settlement-workflow.js';
import type { Trigger } from '../flows/trigger.js';

/**
 * One action: the last segment of its REST path (`start-payout`), the trigger it runs, the type
 * of its optional body (SettlementActionInput unless given) and whether the answer waits briefly
 * for a reverse issuance's approval URL (`withInlineReverseIssuance`).
 */
type Action = [
  path: string,
  trigger: (workflow: SettlementWorkflow) => Trigger<never>,
  options?: { input?: ClassType; inline?: true },
];

/**
 * The mutations that run one trigger on one settlement, declared as a table: for each row a
 * mutation `name(id: ID!, input: <body>)` → the settlement, for `roles`, described by its REST path
 * (`${paths}/:id/<path>`). The trigger reads the body and checks everything else.
 */
export function settlementActions(
  roles: readonly Role[],
  paths: string,
  actions: Record<string, Action>,
) {
  const rows: Record<string, Operation> = {};
  for (const [name, [path, trigger, options]] of Object.entries(actions)) {
    const input = options?.input ?? SettlementActionInput;
    rows[name] = {
      description: `POST ${paths}/:id/${path}`,
      id: true,
      arg: ['input', () => input, { nullable: true }],
      run: async (ctx, id, body?: never) => {
        const run = trigger(ctx.services.workflow);
        const settlement = await run(ctx.em, await ctx.principal(), id, body);
        return options?.inline ? withInlineReverseIssuance(ctx, settlement) : settlement;
      },
    };
  }
  @Resolver(() => Settlement)
  class SettlementActionResolver extends operations(
    NoReads,
    { roles, returns: () => Settlement },
    rows,
  ) {}
  return SettlementActionResolver;
}

/**
 * After a request's move to AWAITING_ADVERTISER_PAYMENT is committed: a business partner's
 * approval URL is in the answer when the provider gives it in time (TAX_INVOICE_INLINE_WAIT_MS),
 * else the outbox keeps asking. Read again: an instant approval already set
 * partnerInvoiceReceivedAt.
 */
export async function withInlineReverseIssuance(
  ctx: SettlementContext,
  settlement: Settlement,
): Promise<Settlement> {
  await ctx.services.taxInvoices.requestReverseInline(ctx.em, settlement.id);
  return ctx.em.findOneOrFail(Settlement, { id: settlement.id }, { refresh: true });
}

/**
 * The caller, once settlement `id` is one it may see (the same 404 as reading it otherwise): what
 * an operation on another record of that settlement (its reverse issuance) checks first.
 */
export async function principalSeeing(ctx: SettlementContext, id: string): Promise<Principal> {
  const principal = await ctx.principal();
  await ctx.services.settlements.get(ctx.em, principal, id);
  return principal;
}
