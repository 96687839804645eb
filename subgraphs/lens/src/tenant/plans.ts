/**
 * The plans a tenant can be on: which operations the plan includes (`*` for all) and the rate
 * limit a new key of the plan gets. A tenant's own `permissions` can narrow this further; an
 * operation outside the plan is 403 PLAN_REQUIRED, outside the permissions 403 PERMISSION_DENIED.
 */
export interface Plan {
  operations: readonly string[] | '*';
  rateLimitPerMinute: number;
}

export const PLANS: Readonly<Record<string, Plan>> = {
  default: { operations: '*', rateLimitPerMinute: 60 },
  pro: { operations: '*', rateLimitPerMinute: 600 },
  starter: {
    operations: ['accounts.profile', 'accounts.about', 'accounts.search'],
    rateLimitPerMinute: 30,
  },
};

export function planIncludes(planName: string, operationName: string): boolean {
  const plan = Object.hasOwn(PLANS, planName) ? PLANS[planName] : undefined;
  if (!plan) return false;
  return plan.operations === '*' || plan.operations.includes(operationName);
}
