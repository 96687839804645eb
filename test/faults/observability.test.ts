import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { COMPILED_CONDITION, repoRoot } from '@campaign/stack';
import { describe, expect, it } from 'vitest';
import { cliFor } from '../support/cli.js';
import type { ReceivedSpan } from '../support/otlp-receiver.js';
import { call } from './support/fault-stack.js';
import { useObservedStack } from './support/observed-stack.js';
import { ALERT_RULES, promtool, usePrometheus } from './support/prometheus.js';
import {
  clientCallOf,
  fromService,
  isDatabase,
  requestedSettlement,
  traceIdOf,
  traceparent,
  traceWith as traceOf,
  waitFor,
} from './support/traces.js';

/**
 * Issue 26, "Done when": one trace per client request across the adapter, the gateway, a
 * subgraph and PostgreSQL (since issue 27 the gateway engine of a REST call runs in the adapter's
 * process: its `gateway.request` span is the adapter's), with the work done later (the 202 execution's upstream read, the
 * outbox's SMTP delivery) under the client's trace id; nothing secret in any span; and a real
 * Prometheus scraping the same stack, finding the series these calls produced.
 */
const observed = useObservedStack('http/protobuf');
const prometheus = usePrometheus(() => observed.stack.urls);

const run = promisify(execFile);

const BANK_ACCOUNT = '3333-01-7654321';
/** Values no span may show: credentials, keys, addresses, and a query value (the handle). */
const secrets: string[] = [BANK_ACCOUNT, 'username=trace.billed'];

const traceWith = (traceId: string, wanted: Parameters<typeof traceOf>[2]) =>
  traceOf(observed.otlp.spans, traceId, wanted);
const lensDatabase = (s: ReceivedSpan) => s.service === 'lens' && isDatabase(s);
/**
 * A subgraph fetch of the Apollo engine, in the adapter's process (issue 27): of Apollo's spans
 * the plan and each fetch are made (issue 26, cost).
 */
const inProcessGateway = (s: ReceivedSpan) =>
  s.service === 'rest-adapter' && s.name === 'gateway.fetch';

const lensCall = (key: string, handle: string, traceId: string, idempotencyKey = randomUUID()) => {
  secrets.push(idempotencyKey);
  return call<{ data: { operationId: string; status: string } }>(
    observed.stack.urls.rest,
    'POST',
    '/api/lens/v1/accounts/profile',
    {
      token: key,
      body: { accountRef: { handle } },
      headers: { 'idempotency-key': idempotencyKey, traceparent: traceparent(traceId) },
    },
  );
};

let key: string;
let admin: string;

describe('traces (OTLP over http/protobuf)', () => {
  it('a billed REST call is one trace: adapter, gateway, lens, PostgreSQL, upstream', async () => {
    key = await cliFor(observed.stack.urls, 'lens:create-key');
    admin = await cliFor(observed.stack.urls, 'auth:token', '--role', 'SUPER_ADMIN');
    secrets.push(key, admin);
    const traceId = traceIdOf();
    const answer = await lensCall(key, 'trace.billed', traceId);
    expect(answer.status).toBe(200);
    const spans = await traceWith(traceId, {
      adapter: fromService('rest-adapter'),
      gateway: inProcessGateway,
      lens: fromService('lens'),
      database: lensDatabase,
      upstream: clientCallOf('lens'),
    });
    // Server spans are named by route template (semantic conventions), never by the raw path.
    expect(spans.map((s) => `${s.service} ${s.name}`)).toContain(
      'rest-adapter POST /api/lens/v1/accounts/profile',
    );
    const lensServer = spans.find((s) => s.service === 'lens' && s.kind === 2)!;
    expect(lensServer.name).toBe('POST /graphql');
    expect(lensServer.attributes['graphql.operation.type']).toBe('mutation');
    expect(
      spans.some((s) => s.attributes['lens.operation.id'] === answer.body.data.operationId),
    ).toBe(true);
    // The statement is shown with its placeholders.
    const sql = spans.filter(lensDatabase).map((s) => String(s.attributes['db.query.text']));
    expect(sql.some((text) => text.includes('lens_start_operation($1'))).toBe(true);
  });

  it('a 202 call polled to the end: its execution and upstream read in the same trace', async () => {
    const traceId = traceIdOf();
    const answer = await lensCall(key, 'slow_trace', traceId);
    expect(answer.status).toBe(202);
    const id = answer.body.data.operationId;
    await waitFor(async () => {
      const polled = await call<{ data: { status: string } }>(
        observed.stack.urls.rest,
        'GET',
        `/api/lens/v1/operations/${id}`,
        { token: key },
      );
      return polled.body.data?.status === 'SUCCEEDED' ? polled : null;
    }, `operation ${id} SUCCEEDED`);
    const spans = await traceWith(traceId, {
      adapter: fromService('rest-adapter'),
      gateway: inProcessGateway,
      database: lensDatabase,
      upstream: clientCallOf('lens'),
      settle: (s) => lensDatabase(s) && String(s.attributes['db.query.text']).includes('settle'),
    });
    expect(spans.length).toBeGreaterThan(5);
  });

  it('a settlement move that sends e-mail: the SMTP delivery is linked into its trace', async () => {
    const partnerEmail = `trace-partner-${Date.now()}@notify.example`;
    const advertiserEmail = `trace-adv-${Date.now()}@notify.example`;
    const { id, partner } = await requestedSettlement(observed.stack.urls, admin, {
      partnerEmail,
      advertiserEmail,
      bankAccount: BANK_ACCOUNT,
    });
    secrets.push(partnerEmail, advertiserEmail, partner);
    const rest = observed.stack.urls.rest;
    const traceId = traceIdOf();
    const moved = await call(rest, 'PATCH', `/api/admin/settlements/${id}/status`, {
      token: admin,
      body: { status: 'ADVERTISER_PAID' },
      headers: { traceparent: traceparent(traceId) },
    });
    expect(moved.status).toBe(200);
    const spans = await traceWith(traceId, {
      adapter: fromService('rest-adapter'),
      gateway: inProcessGateway,
      settlement: (s) => s.service === 'settlement' && s.attributes['settlement.id'] === id,
      database: (s) => s.service === 'settlement' && isDatabase(s),
      delivery: (s) =>
        s.name.startsWith('outbox deliver') && s.links.some((l) => l.traceId === traceId),
      smtp: (s) => s.name === 'smtp send',
    });
    const delivery = spans.find((s) => s.name.startsWith('outbox deliver'))!;
    expect(spans.find((s) => s.name === 'smtp send')!.parentSpanId).toBeTruthy();
    expect(delivery.service).toBe('settlement');
  });

  it('no span name or attribute carries a key, token, Idempotency-Key, e-mail or bank account', () => {
    expect(observed.otlp.encodings).toContain('application/x-protobuf');
    const leaks = observed.otlp.spans.flatMap((span) => {
      const text = `${span.name} ${JSON.stringify(span.attributes)}`;
      return secrets.filter((secret) => text.includes(secret)).map((s) => `${span.name}: ${s}`);
    });
    expect(leaks).toEqual([]);
  });
});

describe('Prometheus scraping the stack', () => {
  it('finds every service up and the domain series these calls produced', async () => {
    const value = (query: string) => prometheus.value(query);
    await waitFor(
      async () => ((await value('count(up == 1)')) === 4 ? true : null),
      'all four services up',
    );
    await waitFor(
      async () =>
        (await value(
          'sum(lens_operations_total{operation="accounts.profile",status="SUCCEEDED"})',
        )) === 2
          ? true
          : null,
      'two profile reads counted',
    );
    expect(await value('sum(lens_credits_charged_total)')).toBeGreaterThan(0);
    expect(await value('lens_operations_reconciliation_required')).toBe(0);
    expect(await value('sum(outbox_messages{status="DEAD"})')).toBe(0);
    expect(await value('outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(await value('settlements{status="ADVERTISER_PAID"}')).toBeGreaterThanOrEqual(1);
    expect(await value('sum(job_runner_up)')).toBe(2);
    expect(
      await value(
        'sum(http_server_request_duration_seconds_count{job="rest-adapter",http_route="/api/lens/v1/accounts/profile"})',
      ),
    ).toBe(2);
    expect(await value('count(process_cpu_seconds_total)')).toBe(4);
  });
});

describe('the Grafana dashboard', () => {
  it('asks Prometheus only valid queries, and each finds data on this stack', async () => {
    const dashboard = JSON.parse(
      await readFile(join(repoRoot, 'ops/grafana/campaign-platform.json'), 'utf8'),
    ) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const answers = await Promise.all(
      dashboard.panels.flatMap((panel) =>
        (panel.targets ?? []).map(async ({ expr }) => ({
          panel: panel.title,
          expr,
          ...(await prometheus.query(expr)),
        })),
      ),
    );
    expect(answers.length).toBeGreaterThan(20);
    expect(answers.filter((a) => a.status !== 'success')).toEqual([]);
    // Rates need two scrapes of a moved counter; presence is what this stack can promise.
    const empty = answers.filter((a) => a.samples === 0 && !/rate\(|increase\(/.test(a.expr));
    expect(empty).toEqual([]);
  });
});

describe('OTLP over http/json', () => {
  it('a process with OTEL_EXPORTER_OTLP_PROTOCOL=http/json exports JSON; its log lines name the span', async () => {
    // The platform's own start-up, in a process of its own: the SDK picks the exporter.
    const script = `
      const { startTelemetry } = await import('@campaign/platform/telemetry');
      const telemetry = await startTelemetry('json-check');
      const { createLogger, inSpan } = await import('@campaign/platform');
      const log = createLogger('json-check', 'info');
      log.info('outside any span');
      await inSpan('json check', { attributes: { 'check.kind': 'json' } }, async () =>
        log.info('inside the span'));
      await telemetry.shutdown();`;
    const { stdout } = await run(
      process.execPath,
      [`--conditions=${COMPILED_CONDITION}`, '--input-type=module', '-e', script],
      {
        cwd: join(repoRoot, 'test'),
        env: {
          ...process.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: observed.otlp.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          LOG_FORMAT: 'json',
        },
      },
    );
    const span = observed.otlp.spans.find((s) => s.name === 'json check');
    expect(span).toMatchObject({ service: 'json-check', attributes: { 'check.kind': 'json' } });
    expect(observed.otlp.encodings.has('application/json')).toBe(true);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((l) => l['msg'] === 'inside the span')).toMatchObject({
      trace_id: span!.traceId,
      span_id: span!.spanId,
    });
    expect(lines.find((l) => l['msg'] === 'outside any span')).not.toHaveProperty('trace_id');
  });
});

// Last of the stack's tests: it kills lens (its counters start again from zero).
describe('work the reconciler took over', () => {
  it("an operation whose process died: the attempt of the reconciler's job is linked into the trace", async () => {
    const traceId = traceIdOf();
    const answer = await lensCall(key, 'slow_reconciled', traceId);
    expect(answer.status).toBe(202);
    // The inline attempt dies with its process; the lease runs out and the reconciler's job
    // makes the attempt that settles the operation.
    const lens = observed.stack.services.find((s) => s.name === 'lens subgraph')!;
    const restarts = lens.restarts();
    process.kill(lens.pid()!, 'SIGKILL');
    await waitFor(async () => (lens.restarts() > restarts ? true : null), 'lens restarted');
    const spans = await traceWith(traceId, {
      attempt: (s) =>
        s.name === 'lens attempt accounts.profile' &&
        s.attributes['lens.operation.id'] === answer.body.data.operationId &&
        s.attributes['lens.attempt.from'] === 'RECONCILIATION_REQUIRED' &&
        s.links.some((l) => l.traceId === traceId),
      upstream: clientCallOf('lens'),
    });
    const attempt = spans.find((s) => s.name === 'lens attempt accounts.profile')!;
    // The upstream read of that attempt is its child.
    expect(spans.some((s) => s.parentSpanId === attempt.spanId)).toBe(true);
  });
});

describe('alert rules', () => {
  it('pass promtool check rules and their unit tests', () => {
    expect(promtool('check', 'rules', ALERT_RULES)).toMatch(/SUCCESS: \d+ rules found/);
    expect(promtool('test', 'rules', 'ops/prometheus/alerts.test.yml')).toMatch(/SUCCESS/);
  });
});
