import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '@campaign/platform';
import { loadGatewayConfig } from './config.js';

/** Issue 15: introspection and the explorer, on for development and off by default in production. */
describe('gateway explorer and introspection settings', () => {
  const production = {
    NODE_ENV: 'production',
    SUBGRAPH_SECRET: 'a-production-subgraph-secret-of-enough-length',
    PROXY_SECRET: 'a-production-proxy-secret-of-enough-length',
  };

  it('has both on by default on a development machine', () => {
    const config = loadGatewayConfig({});
    expect([config.GATEWAY_INTROSPECTION, config.GATEWAY_EXPLORER]).toEqual([true, true]);
  });

  it('has both off by default in production, and either can be turned on there', () => {
    const config = loadGatewayConfig(production);
    expect([config.GATEWAY_INTROSPECTION, config.GATEWAY_EXPLORER]).toEqual([false, false]);
    const opened = loadGatewayConfig({ ...production, GATEWAY_INTROSPECTION: 'true' });
    expect([opened.GATEWAY_INTROSPECTION, opened.GATEWAY_EXPLORER]).toEqual([true, true]);
  });

  it('turns the explorer off alone, and refuses an explorer without introspection', () => {
    const quiet = loadGatewayConfig({ GATEWAY_EXPLORER: 'false' });
    expect([quiet.GATEWAY_INTROSPECTION, quiet.GATEWAY_EXPLORER]).toEqual([true, false]);
    expect(loadGatewayConfig({ GATEWAY_INTROSPECTION: 'false' }).GATEWAY_EXPLORER).toBe(false);
    expect(() =>
      loadGatewayConfig({ GATEWAY_INTROSPECTION: 'false', GATEWAY_EXPLORER: 'true' }),
    ).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ GATEWAY_EXPLORER: 'yes' })).toThrow(/GATEWAY_EXPLORER/);
  });
});

/** Issue 27: Hive Router's Rust query planner, on the Hive engine only. */
describe('gateway query planner setting', () => {
  it('defaults to the engine’s own planner and takes the Rust one on the Hive engine', () => {
    expect(loadGatewayConfig({}).GATEWAY_QUERY_PLANNER).toBe('javascript');
    const rust = loadGatewayConfig({ GATEWAY_ENGINE: 'hive', GATEWAY_QUERY_PLANNER: 'rust' });
    expect([rust.GATEWAY_ENGINE, rust.GATEWAY_QUERY_PLANNER]).toEqual(['hive', 'rust']);
  });

  it('refuses the Rust planner on the Apollo gateway, and an unknown planner', () => {
    expect(() => loadGatewayConfig({ GATEWAY_QUERY_PLANNER: 'rust' })).toThrow(
      /GATEWAY_QUERY_PLANNER/,
    );
    expect(() =>
      loadGatewayConfig({ GATEWAY_ENGINE: 'hive', GATEWAY_QUERY_PLANNER: 'wasm' }),
    ).toThrow(ConfigError);
  });
});

describe("Apollo's usage-data meter (issue 27)", () => {
  it('is not loaded with the gateway, nor make-fetch-happen: required only when made', () => {
    // A process of its own: this worker's module cache may hold anything.
    const loaded = (code: string) =>
      execFileSync(process.execPath, ['-e', code], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
      }).trim();
    const heavy = `Object.keys(require.cache).filter((f) => /sdk-metrics|exporter-metrics-otlp|resource-detector|index-incubating|make-fetch-happen/.test(f)).length`;
    expect(loaded(`require('@apollo/gateway'); console.log(${heavy})`)).toBe('0');
  });
});
