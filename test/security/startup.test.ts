import { fork } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMPILED_CONDITION, compiledPath, ensureCompiled, repoRoot } from '@campaign/stack';
import { stack } from '../support/clients.js';
import { TEST_OUTBOX_ENV } from '../support/test-stack.js';

/**
 * The published development secrets make a new machine work with no set-up; a service warns when
 * it runs with one and refuses to start with one in production.
 */
interface Outcome {
  ready: boolean;
  code: number | null;
  stderr: string;
}

/**
 * Starts one service as `npm start` does (its compiled main, seconds faster than through a
 * TypeScript loader) and reports whether it got ready.
 */
function startOnce(main: string, env: Record<string, string>): Promise<Outcome> {
  ensureCompiled();
  const child = fork(`${repoRoot}${compiledPath(main)}`, [], {
    cwd: repoRoot,
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'warn', ...env },
    execArgv: [`--conditions=${COMPILED_CONDITION}`],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let ready = false;
  child.on('message', (message: { type?: string }) => {
    if (message?.type !== 'ready') return;
    ready = true;
    child.kill('SIGTERM');
  });
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve({ ready, code: ready ? null : code, stderr }));
  });
}

/**
 * A settlement process also delivers the shared database's outbox while it runs: it gets the
 * stack's outside systems and test back-off, like the stack's own settlement subgraph.
 */
const settlement = () => {
  const [smtpHost = '127.0.0.1', smtpPort = '0'] = (stack().mailSmtp ?? '').split(':');
  return {
    SETTLEMENT_PORT: '0',
    SETTLEMENT_DATABASE_URL: stack().settlementDatabase,
    SMTP_HOST: smtpHost,
    SMTP_PORT: smtpPort,
    TEAM_CHAT_WEBHOOK_URL: stack().chatWebhook,
    TAX_INVOICE_PROVIDER_URL: stack().taxInvoice,
    TAX_AUTHORITY_URL: stack().taxAuthority,
    ...TEST_OUTBOX_ENV,
  };
};
const OWN = {
  AUTH_JWT_SECRET: 'a-secret-of-this-deployment-only-0123456789',
  SUBGRAPH_SECRET: 'another-secret-of-this-deployment',
  TAX_INVOICE_WEBHOOK_SECRET: 'the-webhook-secret-of-this-deployment',
};

describe('published development secrets', () => {
  it('production: the settlement subgraph refuses to start, naming each one', async () => {
    const outcome = await startOnce('subgraphs/settlement/src/main.ts', {
      ...settlement(),
      NODE_ENV: 'production',
    });
    expect(outcome.ready).toBe(false);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('AUTH_JWT_SECRET: the published development value is refused');
    expect(outcome.stderr).toContain('SUBGRAPH_SECRET: the published development value is refused');
    expect(outcome.stderr).toContain(
      'TAX_INVOICE_WEBHOOK_SECRET: the published development value is refused',
    );
    expect(outcome.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('production: lens and the gateway refuse theirs too (cursor secret included)', async () => {
    const lens = await startOnce('subgraphs/lens/src/main.ts', {
      LENS_PORT: '0',
      LENS_DATABASE_URL: stack().lensDatabase,
      LENS_UPSTREAM_URL: stack().upstream,
      NODE_ENV: 'production',
    });
    expect(lens.ready).toBe(false);
    for (const name of ['AUTH_JWT_SECRET', 'LENS_CURSOR_SECRET', 'SUBGRAPH_SECRET'])
      expect(lens.stderr).toContain(`${name}: the published development value is refused`);
    const gateway = await startOnce('gateway/src/main.ts', {
      GATEWAY_PORT: '0',
      NODE_ENV: 'production',
    });
    expect(gateway.ready).toBe(false);
    expect(gateway.stderr).toContain('SUBGRAPH_SECRET: the published development value is refused');
    expect(gateway.stderr).toContain('PROXY_SECRET: the published development value is refused');
  });

  it('development: starts, with a warning naming them', async () => {
    const outcome = await startOnce('subgraphs/settlement/src/main.ts', settlement());
    expect(outcome.ready).toBe(true);
    expect(outcome.stderr).toContain(
      'warning: AUTH_JWT_SECRET, SUBGRAPH_SECRET, TAX_INVOICE_WEBHOOK_SECRET hold the published',
    );
  });

  it('production with secrets of its own: starts, no warning', async () => {
    const outcome = await startOnce('subgraphs/settlement/src/main.ts', {
      ...settlement(),
      ...OWN,
      NODE_ENV: 'production',
    });
    expect(outcome.ready, outcome.stderr).toBe(true);
    expect(outcome.stderr).not.toContain('warning');
  });
});
