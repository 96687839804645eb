import { afterEach, describe, expect, it, vi } from 'vitest';
import { signToken, verifyPrincipal, type Principal } from './auth.js';

const settings = { secret: 'a-test-secret-of-at-least-32-characters', issuer: 'test' };
const admin: Principal = { subject: 'ops', role: 'ADMIN', agencyId: null, partnerId: null };

describe('verifyPrincipal with the verified-token cache', () => {
  afterEach(() => vi.useRealTimers());

  it('answers a token again without changing what it says', async () => {
    const token = await signToken(settings, admin);
    const first = await verifyPrincipal(settings, `Bearer ${token}`);
    expect(first).toEqual(admin);
    expect(await verifyPrincipal(settings, `Bearer ${token}`)).toEqual(admin);
  });

  it('refuses a cached token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const token = await signToken(settings, admin, '10s');
    await verifyPrincipal(settings, `Bearer ${token}`);
    vi.setSystemTime(new Date('2030-01-01T00:00:11Z'));
    await expect(verifyPrincipal(settings, `Bearer ${token}`)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('verifies again under another secret', async () => {
    const token = await signToken(settings, admin);
    await verifyPrincipal(settings, `Bearer ${token}`);
    const other = { ...settings, secret: 'another-secret-of-at-least-32-characters' };
    await expect(verifyPrincipal(other, `Bearer ${token}`)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});

describe('TENANT tokens (a lens account console, issue 24)', () => {
  const tenantId = '5b0c7a3e-3f1d-4a53-9d0e-8f6a1b2c3d4e';

  it('carry their tenant, and only they do', async () => {
    const console: Principal = { ...admin, role: 'TENANT', tenantId };
    const token = await signToken(settings, console);
    expect(await verifyPrincipal(settings, `Bearer ${token}`)).toEqual(console);
    const withoutTenant = await signToken(settings, { ...admin, role: 'TENANT' });
    await expect(verifyPrincipal(settings, `Bearer ${withoutTenant}`)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    const adminWithTenant = await signToken(settings, { ...admin, tenantId });
    await expect(verifyPrincipal(settings, `Bearer ${adminWithTenant}`)).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });
});
