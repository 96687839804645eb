import type { RunningStack } from '@campaign/stack';
import { afterAll, beforeAll } from 'vitest';
import { startTestStack } from '../../support/test-stack.js';
import { FAULTS_SLOW_DELAY_MS, FAULTS_SYNC_BUDGET_MS } from './global-faults.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';

/**
 * Issue 26: a stack of its own whose services trace into an OTLP receiver of this process (the
 * shared stacks run with tracing off, as production does by default). Spans are exported a fifth
 * of a second after they end, so a test waits for facts, not for the default 5 s batch delay.
 */
export interface ObservedStack {
  stack: RunningStack;
  otlp: OtlpReceiver;
}

export function useObservedStack(protocol: 'http/protobuf' | 'http/json'): ObservedStack {
  const observed = {} as ObservedStack;
  beforeAll(async () => {
    observed.otlp = await startOtlpReceiver();
    observed.stack = await startTestStack({
      serviceEnv: {
        OTEL_EXPORTER_OTLP_ENDPOINT: observed.otlp.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_TRACES_SAMPLER: 'parentbased_always_on',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test',
        // The faults stack's budget, not the shared one's 1 s: the first billed call of a stack
        // just booted (every hop cold) overran 1 s on a loaded machine and answered 202.
        LENS_SYNC_BUDGET_MS: String(FAULTS_SYNC_BUDGET_MS),
        // A killed process's operation reaches the reconciler within seconds.
        LENS_LEASE_MS: '3000',
      },
      upstreamSlowDelayMs: FAULTS_SLOW_DELAY_MS,
      taxInvoiceDelayMs: 1000,
    });
  });
  afterAll(async () => {
    await observed.stack?.stop();
    await observed.otlp?.close();
  });
  return observed;
}
