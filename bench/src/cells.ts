import { ADMIN_SETTLEMENT, operationDocument, STATUS_DOCUMENT } from '@campaign/rest-adapter';
import { lensOperations } from '@campaign/schema';
import type { EngineHop, EngineUrls } from './engine-cells.js';
import type { LoadSpec } from './load-worker.js';

/** Where a row is measured: each hop of the project, and the bare reference. */
export type Hop =
  | 'subgraph'
  | 'gateway (apollo)'
  | typeof OWN_DOCUMENT_HOP
  | 'REST'
  | 'reference'
  | CostHop
  | EngineHop;

/**
 * Issue 27: the gateway cells send the REST adapter's documents (schema/trusted-documents.json),
 * which the standalone Apollo gateway answers without Apollo Server's pipeline; a client that
 * writes its own document (a console, a lens client over GraphQL) takes Apollo Server's. The
 * replay again with the same document and one more newline (not a trusted document) measures
 * that path in the same run.
 */
export const OWN_DOCUMENT_HOP = 'gateway (apollo, own document)';

/**
 * Issue 26: the REST hop again on three sets of services that only these cells load (equally
 * warm): the default (metrics on, tracing off), metrics off, and tracing every request.
 */
export const COST_HOPS = [
  'REST (default set)',
  'REST (metrics off)',
  'REST (tracing 100 %)',
] as const;
export type CostHop = (typeof COST_HOPS)[number];
/** The rows the cost of metrics and tracing is measured on. */
export const COST_ROWS = ['billed call, one tenant one account', 'replay of one key'];

export interface Cell {
  row: string;
  hop: Hop;
  spec: Omit<LoadSpec, 'connections' | 'durationS'>;
  /** Also count SQL statements per request (pg_stat_statements). */
  countStatements?: boolean;
}

export interface Fixtures {
  urls: {
    rest: string;
    gateway: string;
    /** The other engines' gateways and adapters (engine-cells.ts). */
    engines: EngineUrls;
    /** REST adapters of the sets of COST_HOPS. */
    restDefault: string;
    restMetricsOff: string;
    restTraced: string;
    lens: string;
    settlement: string;
    reference: string;
  };
  hotKey: string;
  manyKeys: string[];
  manyHandles: string[];
  replayKey: string;
  operationId: string;
  adminToken: string;
  /** What the bench sends the subgraphs directly (the run's SUBGRAPH_SECRET, mode.ts). */
  subgraphSecret: string;
  settlementId: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const subgraphHeaders = (f: Fixtures) => ({ ...JSON_TYPE, 'x-subgraph-secret': f.subgraphSecret });
const gql = (query: string, variables: string) =>
  `{"query":${JSON.stringify(query)},"variables":${variables}}`;

const PROFILE = operationDocument(lensOperations['accounts.profile']);
const FOLLOWERS = operationDocument(lensOperations['accounts.followers']);
const DETAIL = `query($id: ID!) { result: settlement(id: $id) { ${ADMIN_SETTLEMENT} } }`;
const listDocument = (partner: string) =>
  `query($limit: Int) { result: settlements(limit: $limit) { items { ${ADMIN_SETTLEMENT} partner { ${partner} } } nextCursor total } }`;
const FEDERATED = `query($id: ID!) { settlement(id: $id) { id payoutAmount partner { name account { handle followerCount } } } }`;

/** A plain HTTP call of a row: the REST adapter's or the reference's. */
interface HttpCall {
  path: string;
  body?: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
}

/** One row at every hop: the GraphQL hops share the body, REST and the reference their own. */
function lensRow(
  row: string,
  f: Fixtures,
  key: string,
  gqlBody: string,
  rest: HttpCall,
  reference: HttpCall,
  extra: Partial<LoadSpec> = {},
): Cell[] {
  const auth = { authorization: `Bearer ${key}` };
  const cell = (hop: Hop, url: string, call: Omit<HttpCall, 'path'>): Cell => ({
    row,
    hop,
    spec: {
      url,
      method: call.method,
      headers: { ...JSON_TYPE, ...auth, ...call.headers },
      ...(call.body ? { body: call.body } : {}),
      ...extra,
    },
  });
  const graphqlCall = { method: 'POST', body: gqlBody } as const;
  return [
    cell('subgraph', f.urls.lens, { ...graphqlCall, headers: subgraphHeaders(f) }),
    cell('gateway (apollo)', f.urls.gateway, graphqlCall),
    cell('REST', `${f.urls.rest}${rest.path}`, rest),
    cell('reference', `${f.urls.reference}${reference.path}`, reference),
  ];
}

export function cells(f: Fixtures): Cell[] {
  const fresh = { 'idempotency-key': '{{uuid}}' };
  const profileInput = '{"accountRef":{"handle":"{{handle}}"}}';
  const followersInput = '{"accountRef":{"handle":"minji.daily"},"pageSize":25{{cursor}}}';
  const billed = (row: string, key: string, extra: Partial<LoadSpec>) =>
    lensRow(
      row,
      f,
      key,
      gql(PROFILE, `{"idempotencyKey":"{{uuid}}","input":${profileInput}}`),
      { path: '/api/lens/v1/accounts/profile', method: 'POST', body: profileInput, headers: fresh },
      { path: '/lens/accounts/profile', method: 'POST', body: profileInput, headers: fresh },
      extra,
    );
  const admin = { authorization: `Bearer ${f.adminToken}` };
  const settlementRow = (
    row: string,
    body: string,
    rest: string | null,
    reference: string,
    subgraphBody = body,
  ): Cell[] => [
    {
      row,
      hop: 'subgraph',
      spec: {
        url: f.urls.settlement,
        method: 'POST',
        headers: { ...subgraphHeaders(f), ...admin },
        body: subgraphBody,
      },
      countStatements: true,
    },
    {
      row,
      hop: 'gateway (apollo)',
      spec: { url: f.urls.gateway, method: 'POST', headers: { ...JSON_TYPE, ...admin }, body },
      countStatements: true,
    },
    ...(rest
      ? [
          {
            row,
            hop: 'REST' as const,
            spec: { url: `${f.urls.rest}${rest}`, method: 'GET' as const, headers: admin },
            countStatements: true,
          },
        ]
      : []),
    {
      row,
      hop: 'reference',
      spec: { url: `${f.urls.reference}${reference}`, method: 'GET', headers: {} },
      countStatements: true,
    },
  ];
  const list = (n: number) =>
    settlementRow(
      `settlement list of ${n} + partner.account`,
      gql(listDocument('name account { handle followerCount }'), `{"limit":${n}}`),
      `/api/admin/settlements?limit=${n}`,
      `/settlements?limit=${n}&accounts=1`,
      // The subgraph alone cannot resolve the lens fields of the partner's account.
      gql(listDocument('name account { accountId }'), `{"limit":${n}}`),
    );
  const replayHeaders = { 'idempotency-key': f.replayKey };
  return [
    ...billed('billed call, one tenant one account', f.hotKey, { handles: ['minji.daily'] }).map(
      counted,
    ),
    ...billed('billed call, 50 tenants many accounts', '{{key}}', {
      keys: f.manyKeys,
      handles: f.manyHandles,
    }).map(counted),
    ...withOwnDocument(
      lensRow(
        'replay of one key',
        f,
        f.hotKey,
        gql(
          PROFILE,
          `{"idempotencyKey":"${f.replayKey}","input":{"accountRef":{"handle":"minji.daily"}}}`,
        ),
        {
          path: '/api/lens/v1/accounts/profile',
          method: 'POST',
          body: '{"accountRef":{"handle":"minji.daily"}}',
          headers: replayHeaders,
        },
        {
          path: '/lens/accounts/profile',
          method: 'POST',
          body: '{"accountRef":{"handle":"minji.daily"}}',
          headers: replayHeaders,
        },
      ),
      `{"idempotencyKey":"${f.replayKey}","input":{"accountRef":{"handle":"minji.daily"}}}`,
    ).map(counted),
    ...lensRow(
      'operation status',
      f,
      f.hotKey,
      gql(STATUS_DOCUMENT, `{"operationId":"${f.operationId}"}`),
      { path: `/api/lens/v1/operations/${f.operationId}`, method: 'GET' },
      { path: `/lens/operations/${f.operationId}`, method: 'GET' },
    ).map(counted),
    ...lensRow(
      'followers walk (pages of 25)',
      f,
      f.hotKey,
      gql(FOLLOWERS, `{"idempotencyKey":"{{uuid}}","input":${followersInput}}`),
      {
        path: '/api/lens/v1/accounts/followers',
        method: 'POST',
        body: followersInput,
        headers: fresh,
      },
      { path: '/lens/accounts/followers', method: 'POST', body: followersInput, headers: fresh },
    ).map(counted),
    ...settlementRow(
      'settlement detail',
      gql(DETAIL, `{"id":"${f.settlementId}"}`),
      `/api/admin/settlements/${f.settlementId}`,
      `/settlements/${f.settlementId}`,
    ),
    ...list(100),
    ...list(10),
    ...settlementRow(
      'federated query (settlement + partner.account)',
      gql(FEDERATED, `{"id":"${f.settlementId}"}`),
      null,
      `/federated/${f.settlementId}`,
    ).filter((c) => c.hop !== 'subgraph'),
  ];
}

const counted = (cell: Cell): Cell => ({ ...cell, countStatements: true });

/** A row's cells and its gateway cell again with the profile document as a client's own. */
function withOwnDocument(row: Cell[], variables: string): Cell[] {
  const gateway = row.find((c) => c.hop === 'gateway (apollo)')!;
  return [
    ...row,
    {
      ...gateway,
      hop: OWN_DOCUMENT_HOP,
      spec: { ...gateway.spec, body: gql(`${PROFILE}\n`, variables) },
    },
  ];
}

/** The default REST cells of COST_ROWS again on the other sets, placed right after them. */
export function withCostCells(all: Cell[], f: Fixtures): Cell[] {
  const bases: Record<CostHop, string> = {
    'REST (default set)': f.urls.restDefault,
    'REST (metrics off)': f.urls.restMetricsOff,
    'REST (tracing 100 %)': f.urls.restTraced,
  };
  return all.flatMap((cell) => {
    if (cell.hop !== 'REST' || !COST_ROWS.includes(cell.row)) return [cell];
    return [
      cell,
      ...COST_HOPS.map((hop) => ({
        ...cell,
        hop,
        spec: { ...cell.spec, url: cell.spec.url.replace(f.urls.rest, bases[hop]) },
      })),
    ];
  });
}
