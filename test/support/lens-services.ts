import { randomUUID } from 'node:crypto';
import { createLogger } from '@campaign/platform';
import { createLensServices, type SocialUpstream } from '@campaign/lens';

type LensConfig = Parameters<typeof createLensServices>[0];
type LensParts = Parameters<typeof createLensServices>[1];

/**
 * The lens services of a service test, named `name` in its (silent) logs: a test cursor secret,
 * every operation enabled at its default price, a 10 s sync budget and a 30 s lease, unless
 * `config` says otherwise.
 */
export function lensServicesFor(
  name: string,
  upstream: SocialUpstream,
  config: Partial<LensConfig> = {},
  parts: Pick<LensParts, 'inline'> = {},
) {
  return createLensServices(
    {
      LENS_CURSOR_SECRET: 'x'.repeat(32),
      LENS_DISABLED_OPERATIONS: [],
      LENS_PRICES: {},
      LENS_SYNC_BUDGET_MS: 10_000,
      LENS_LEASE_MS: 30_000,
      ...config,
    },
    { upstream, logger: createLogger(name, 'silent'), ...parts },
  );
}

/**
 * Lens services under which nothing executes (no upstream, no inline execution, a sync budget of
 * 0): every accepted operation stays RUNNING with its reservation.
 */
export function lensServicesAtRest(name: string, config: Partial<LensConfig> = {}) {
  return lensServicesFor(
    name,
    {} as SocialUpstream,
    { ...config, LENS_SYNC_BUDGET_MS: 0 },
    { inline: false },
  );
}

type LensServices = ReturnType<typeof createLensServices>;

/**
 * A REST tenant of a service test and its key, named `<prefix>-<uuid>`: the default plan, every
 * permission, 1000 requests a minute and 100 credits unless `options` says otherwise.
 */
export function restTenant(
  services: LensServices,
  em: Parameters<LensServices['tenants']['createTenantWithKey']>[0],
  prefix: string,
  options: { rateLimitPerMinute?: number; credits?: number } = {},
) {
  return services.tenants.createTenantWithKey(em, {
    name: `${prefix}-${randomUUID()}`,
    plan: 'default',
    permissions: ['*'],
    rateLimitPerMinute: options.rateLimitPerMinute ?? 1000,
    credits: options.credits ?? 100,
    kind: 'rest',
  });
}

/** The public profile a service test's upstream answers for `ref` (one account, 120 followers). */
export function minjiProfile(ref: { handle?: string }) {
  return {
    accountId: '1789',
    handle: ref.handle ?? null,
    displayName: 'Minji',
    biography: null,
    isPrivate: false,
    isVerified: false,
    followerCount: 120,
    followingCount: 3,
    postCount: 9,
    category: null,
  };
}
