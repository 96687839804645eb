import { describe, expect, it } from 'vitest';
import { loadLensConfig } from '@campaign/lens';
import { ConfigError, metricsAccess } from '@campaign/platform';
import { loadRestAdapterConfig } from '@campaign/rest-adapter';
import { loadSettlementConfig } from '@campaign/settlement';
import { benchMode } from './mode.js';

/**
 * `npm run bench` runs the services as production does (issue 27): each service must accept the
 * run's environment with NODE_ENV=production, which refuses the published development secrets.
 */
const database = 'postgresql://bench@127.0.0.1:1/bench';
const started = (env: Record<string, string>) => ({
  lens: () =>
    loadLensConfig({
      ...env,
      LENS_DATABASE_URL: database,
      LENS_UPSTREAM_URL: 'http://127.0.0.1:1',
    }),
  settlement: () =>
    loadSettlementConfig({
      ...env,
      SETTLEMENT_DATABASE_URL: database,
      TAX_INVOICE_WEBHOOK_SECRET: benchMode('production').webhookSecret!,
    }),
  adapter: () => loadRestAdapterConfig({ ...env, LENS_DATABASE_URL: database }),
});

describe('the bench run mode', () => {
  it('production: every service takes the fresh secrets; /metrics stays readable by token', () => {
    const mode = benchMode('production');
    expect(mode.serviceEnv['NODE_ENV']).toBe('production');
    for (const load of Object.values(started(mode.serviceEnv))) expect(load).not.toThrow();
    expect(metricsAccess(mode.serviceEnv).mode).toBe('token');
    // What the bench sends and signs with is what the services were given.
    expect(mode.serviceEnv['SUBGRAPH_SECRET']).toBe(mode.subgraphSecret);
    expect(mode.serviceEnv['AUTH_JWT_SECRET']).toBe(mode.jwtSecret);
  });

  it('production: fresh secrets every run', () => {
    expect(benchMode('production').jwtSecret).not.toBe(benchMode('production').jwtSecret);
  });

  it('the development secrets would be refused in production (what the mode replaces)', () => {
    const development = benchMode('development');
    expect(development.serviceEnv).toEqual({});
    const { lens } = started({ NODE_ENV: 'production' });
    expect(lens).toThrow(ConfigError);
    expect(lens).toThrow(/AUTH_JWT_SECRET: the published development value is refused/);
  });

  it('refuses another mode', () => {
    expect(() => benchMode('staging')).toThrow(/production or development/);
  });
});
