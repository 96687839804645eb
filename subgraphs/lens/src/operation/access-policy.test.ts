import { describe, expect, it } from 'vitest';
import type { Tenant } from '../tenant/tenant.entity.js';
import { AccessPolicy } from './access-policy.js';

const tenant = (plan: string, permissions: string[]) => ({ plan, permissions }) as Tenant;
const codeOf = (check: () => void) => {
  try {
    check();
    return null;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

describe('the 403s, in order: disabled, plan, permission (DESIGN.md L2, L7)', () => {
  const policy = new AccessPolicy(['accounts.guides']);

  it('an operation switched off in the deployment is OPERATION_DISABLED for everyone', () => {
    expect(codeOf(() => policy.check(tenant('default', ['*']), 'accounts.guides'))).toBe(
      'OPERATION_DISABLED',
    );
  });

  it('an operation outside the plan is PLAN_REQUIRED, even with the permission', () => {
    expect(codeOf(() => policy.check(tenant('starter', ['*']), 'accounts.posts'))).toBe(
      'PLAN_REQUIRED',
    );
    expect(codeOf(() => policy.check(tenant('no-such-plan', ['*']), 'accounts.profile'))).toBe(
      'PLAN_REQUIRED',
    );
    expect(codeOf(() => policy.check(tenant('starter', ['*']), 'accounts.profile'))).toBeNull();
  });

  it('an operation outside the key’s permissions is PERMISSION_DENIED', () => {
    const searchOnly = tenant('default', ['accounts.search']);
    expect(codeOf(() => policy.check(searchOnly, 'accounts.profile'))).toBe('PERMISSION_DENIED');
    expect(codeOf(() => policy.check(searchOnly, 'accounts.search'))).toBeNull();
  });
});

describe('permits: what a credential is offered (the MCP tool list, issue 13)', () => {
  const policy = new AccessPolicy(['accounts.guides']);

  it('follows the same three rules as check', () => {
    expect(policy.permits(tenant('default', ['*']), 'accounts.posts')).toBe(true);
    expect(policy.permits(tenant('default', ['*']), 'accounts.guides')).toBe(false);
    expect(policy.permits(tenant('starter', ['*']), 'accounts.posts')).toBe(false);
    expect(policy.permits(tenant('default', ['accounts.search']), 'accounts.profile')).toBe(false);
  });
});
