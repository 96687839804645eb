import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { initLensOrm } from '@campaign/lens';
import { TenantService } from '@campaign/lens';
import { DEVELOPMENT_SECRETS } from '@campaign/platform';
import { signToken } from '@campaign/platform';
import { startEphemeralStack } from '@campaign/stack';

/**
 * `npm run bench`: the hot paths under load, against a real stack (embedded PostgreSQL, real
 * HTTP, the real gateway). Prints a table and writes it to bench/results/<timestamp>.md.
 */
const DURATION_S = Number(process.argv[2] ?? 10);
const CONNECTIONS = 20;

interface Row {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function load(name: string, options: autocannon.Options): Promise<Row> {
  console.log(`  ${name} ...`);
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...options });
  return {
    name,
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
  };
}

const started = Date.now();
console.log('starting an ephemeral stack ...');
const stack = await startEphemeralStack({
  serviceOutput: 'ignore',
  serviceEnv: { LOG_LEVEL: 'warn' },
});
try {
  const orm = await initLensOrm(stack.urls.lensDatabase, 2);
  const { apiKey } = await new TenantService().createTenantWithKey(orm.em.fork(), {
    name: 'bench',
    plan: 'pro',
    permissions: ['*'],
    rateLimitPerMinute: 1_000_000,
    credits: 10_000_000,
    kind: 'rest',
  });
  await orm.close();
  const adminToken = await signToken(
    { secret: DEVELOPMENT_SECRETS.jwt, issuer: 'campaign-platform' },
    { subject: 'bench', role: 'SUPER_ADMIN', agencyId: null, partnerId: null },
  );
  await fetch(stack.urls.gateway, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ query: 'mutation { markCampaignUploaded(id: "CAM1") { id } }' }),
  });

  console.log(`load: ${CONNECTIONS} connections, ${DURATION_S} s each`);
  const rows: Row[] = [];
  rows.push(
    await load('REST POST /api/lens/v1/accounts/profile (new key each call: billed execution)', {
      url: `${stack.urls.rest}/api/lens/v1/accounts/profile`,
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accountRef: { handle: 'minji.daily' } }),
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'idempotency-key': randomUUID() },
          }),
        },
      ],
    }),
  );
  rows.push(
    await load('REST POST /api/lens/v1/accounts/profile (replay of one key)', {
      url: `${stack.urls.rest}/api/lens/v1/accounts/profile`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/json',
        'idempotency-key': 'bench-replay',
      },
      body: JSON.stringify({ accountRef: { handle: 'minji.daily' } }),
    }),
  );
  rows.push(
    await load('REST GET /api/admin/settlements/SET1', {
      url: `${stack.urls.rest}/api/admin/settlements/SET1`,
      headers: { authorization: `Bearer ${adminToken}` },
    }),
  );
  rows.push(
    await load('GraphQL settlement + partner.account (two subgraphs)', {
      url: stack.urls.gateway,
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query:
          '{ settlement(id: "SET1") { id payoutAmount partner { name account { handle followerCount } } } }',
      }),
    }),
  );
  // Issue 12: a 1,000-line quotation workbook, one at a time, so p50 is one generation's latency.
  const quotation = {
    advertiserId: 1,
    title: 'Bench quotation',
    validUntil: '2027-12-31',
    lines: Array.from({ length: 1000 }, (_, i) => ({
      partnerId: (i % 3) + 1,
      deliverable: `Deliverable ${i + 1}`,
      price: '1234567.89',
      commissionRate: i % 2 ? '15.00' : null,
    })),
  };
  rows.push(
    await load('REST POST /api/admin/quotation/generate (1,000 lines, 1 connection)', {
      url: `${stack.urls.rest}/api/admin/quotation/generate`,
      method: 'POST',
      connections: 1,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(quotation),
    }),
  );

  const table = [
    `# Benchmark ${new Date().toISOString()}`,
    '',
    `${CONNECTIONS} connections, ${DURATION_S} s per row, 2-core machine, embedded PostgreSQL, all services on one host.`,
    '',
    '| path | requests | req/s | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.requests} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`,
    ),
    '',
  ].join('\n');
  console.log(`\n${table}`);
  const dir = new URL('./results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const file = new URL(`${new Date().toISOString().replace(/[:.]/g, '-')}.md`, dir);
  await writeFile(file, table);
  console.log(
    `written to ${file.pathname} (total ${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
} finally {
  await stack.stop();
}
