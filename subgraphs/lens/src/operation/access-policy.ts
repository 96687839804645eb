import { PlatformError } from '@campaign/schema';
import type { TenantProfile } from '../tenant/tenant.service.js';
import { planIncludes } from '../tenant/plans.js';

/**
 * The 403s of DESIGN.md L2, in this order: the deployment switched the operation off, the
 * tenant's plan does not include it, the tenant's key may not call it.
 */
export class AccessPolicy {
  private readonly disabled: ReadonlySet<string>;

  constructor(disabledOperations: readonly string[]) {
    this.disabled = new Set(disabledOperations);
  }

  check(tenant: TenantProfile, operationName: string): void {
    const refusal = this.refusal(tenant, operationName);
    if (refusal) throw refusal;
  }

  /** Whether the tenant may call the operation here (what the tool list shows: issue 13). */
  permits(tenant: TenantProfile, operationName: string): boolean {
    return this.refusal(tenant, operationName) === null;
  }

  private refusal(tenant: TenantProfile, operationName: string): PlatformError | null {
    if (this.disabled.has(operationName)) {
      return new PlatformError(
        'OPERATION_DISABLED',
        `${operationName} is switched off in this deployment.`,
      );
    }
    if (!planIncludes(tenant.plan, operationName)) {
      return new PlatformError(
        'PLAN_REQUIRED',
        `The ${tenant.plan} plan does not include ${operationName}; a plan that does is required.`,
      );
    }
    if (!tenant.permissions.includes('*') && !tenant.permissions.includes(operationName)) {
      return new PlatformError('PERMISSION_DENIED', `This API key may not call ${operationName}.`);
    }
    return null;
  }
}
