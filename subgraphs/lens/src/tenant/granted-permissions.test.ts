import { describe, expect, it } from 'vitest';
import { grantedPermissions } from './tenant.service.js';

describe('a credential limited to some operations (an OAuth connection)', () => {
  it('gets the tenant permissions when not limited', () => {
    expect(grantedPermissions(['*'], null)).toEqual(['*']);
    expect(grantedPermissions(['accounts.profile'], null)).toEqual(['accounts.profile']);
  });

  it('gets its grant within what the tenant may call', () => {
    expect(grantedPermissions(['*'], ['accounts.posts'])).toEqual(['accounts.posts']);
    expect(
      grantedPermissions(['accounts.profile'], ['accounts.profile', 'accounts.posts']),
    ).toEqual(['accounts.profile']);
    expect(grantedPermissions(['accounts.profile'], ['accounts.posts'])).toEqual([]);
  });
});
