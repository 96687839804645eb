import { describe, expect, it } from 'vitest';
import { startTelemetry, tracingEnabled, tracingWanted } from './telemetry.js';
import { currentTraceparent, inQueuedSpan, logTraceFields } from './trace-context.js';

describe('tracing on and off', () => {
  it('is on with an OTLP endpoint (general or for traces) unless the SDK is disabled', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(
      true,
    );
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });

  it('off: nothing starts, and the hooks do nothing but run the work', async () => {
    const telemetry = await startTelemetry('test', {});
    expect(telemetry.tracing).toBe(false);
    expect(tracingEnabled()).toBe(false);
    expect(currentTraceparent()).toBeNull();
    expect(logTraceFields()).toEqual({});
    await expect(inQueuedSpan('work', '00-ab-cd-01', {}, async () => 42)).resolves.toBe(42);
  });
});
