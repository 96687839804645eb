import { createHash, randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import pg from 'pg';
import { Pool as HttpPool } from 'undici';
import {
  KEY_TENANT,
  OBSERVE,
  REPLAY,
  SETTLE,
  START,
  STATUS,
  type OperationRow,
} from './lens-sql.js';
import {
  ACCOUNTS,
  SETTLEMENT_DETAIL,
  SETTLEMENT_PAGE,
  SETTLEMENT_WITH_PARTNER,
} from './settlement-sql.js';

/**
 * The bare reference of `npm run bench` (issue 14): fastify + node-postgres doing the same
 * database work as the project's hot paths, on the same tables, with nothing else (no GraphQL,
 * no ORM, no hops). Started by bench/run.ts from compiled JavaScript; prints its port on IPC.
 */
const env = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const lens = new pg.Pool({ connectionString: env('LENS_DATABASE_URL'), max: 10 });
const settlement = new pg.Pool({ connectionString: env('SETTLEMENT_DATABASE_URL'), max: 10 });
const upstreamUrl = new URL(env('LENS_UPSTREAM_URL'));
const upstream = new HttpPool(upstreamUrl.origin, { connections: 32 });
const ids = new Map<string, string>();

async function upstreamJson<T>(path: string): Promise<T> {
  const response = await upstream.request({ method: 'GET', path });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new Error(`upstream answered ${response.statusCode}`);
  }
  return (await response.body.json()) as T;
}

interface RawUser {
  id: string;
  username: string;
  full_name?: string;
  edge_followed_by?: { count: number };
}

const profileOf = async (handle: string) => {
  const raw = await upstreamJson<{ data: { user: RawUser } }>(
    `/api/v1/users/web_profile_info/?username=${encodeURIComponent(handle)}`,
  );
  ids.set(handle, raw.data.user.id);
  return raw.data.user;
};

const summary = (u: RawUser) => ({
  accountId: u.id,
  handle: u.username,
  displayName: u.full_name ?? null,
  followerCount: u.edge_followed_by?.count ?? null,
});

async function credentialOf(
  request: FastifyRequest,
): Promise<{ tenant: string; credential: string } | null> {
  const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
  const hash = createHash('sha256').update(key).digest('hex');
  const { rows } = await lens.query<{ id: string; credential_id: string }>({
    ...KEY_TENANT,
    values: [hash],
  });
  return rows[0] ? { tenant: rows[0].id, credential: rows[0].credential_id } : null;
}

async function tenantOf(request: FastifyRequest): Promise<string | null> {
  return (await credentialOf(request))?.tenant ?? null;
}

const envelope = (row: OperationRow, replayed: boolean) => ({
  success: true,
  data: {
    operationId: row.id,
    operationName: row.operation_name,
    status: row.status,
    ...(row.result ? { data: row.result } : {}),
    credits: {
      reserved: Number(row.credits_reserved),
      charged: Number(row.credits_charged),
      refunded: Number(row.credits_refunded),
    },
    replayed,
  },
});

interface LensBody {
  accountRef: { handle: string };
  cursor?: string;
  pageSize?: number;
}

/** A billed operation: key → tenant, replay look-up, start, upstream, observation, settle. */
async function billed(name: string, request: FastifyRequest, reply: FastifyReply) {
  const caller = await credentialOf(request);
  if (!caller) return reply.code(401).send({ success: false });
  const { tenant, credential } = caller;
  const key = String(request.headers['idempotency-key'] ?? '');
  const prior = await lens.query<OperationRow>({ ...REPLAY, values: [tenant, key] });
  if (prior.rows[0]) return envelope(prior.rows[0], true);
  const body = request.body as LensBody;
  const input = JSON.stringify(body);
  const hash = createHash('sha256').update(input).digest('hex');
  const reserve = name === 'accounts.profile' ? 1 : 1 + (body.pageSize ?? 25);
  const id = randomUUID();
  const started = await lens.query({
    ...START,
    values: [tenant, id, key, name, input, hash, reserve, credential],
  });
  if (!started.rowCount) return reply.code(409).send({ success: false });
  const observedAt = new Date();
  let result: Record<string, unknown>;
  let charged = 1;
  if (name === 'accounts.profile') {
    const user = await profileOf(body.accountRef.handle);
    result = summary(user);
    await lens.query({
      ...OBSERVE,
      values: [user.id, user.username, JSON.stringify(result), observedAt],
    });
  } else {
    const id = ids.get(body.accountRef.handle) ?? (await profileOf(body.accountRef.handle)).id;
    const cursor = body.cursor ? `&max_id=${encodeURIComponent(body.cursor)}` : '';
    const page = await upstreamJson<{ users: RawUser[]; next_max_id?: string }>(
      `/api/v1/friendships/${id}/followers/?count=${body.pageSize ?? 25}${cursor}`,
    );
    result = { items: page.users.map(summary), nextCursor: page.next_max_id ?? null };
    charged = 1 + page.users.length;
  }
  await lens.query({
    ...SETTLE,
    values: [id, tenant, JSON.stringify(result), charged, observedAt],
  });
  return {
    success: true,
    data: {
      operationId: id,
      operationName: name,
      status: 'SUCCEEDED',
      data: result,
      credits: { reserved: reserve, charged, refunded: reserve - charged },
      replayed: false,
    },
  };
}

const app = Fastify({ logger: false });
app.post('/lens/accounts/profile', (request, reply) => billed('accounts.profile', request, reply));
app.post('/lens/accounts/followers', (request, reply) =>
  billed('accounts.followers', request, reply),
);
app.get<{ Params: { id: string } }>('/lens/operations/:id', async (request, reply) => {
  const tenant = await tenantOf(request);
  if (!tenant) return reply.code(401).send({ success: false });
  const { rows } = await lens.query<OperationRow>({
    ...STATUS,
    values: [request.params.id, tenant],
  });
  return rows[0] ? envelope(rows[0], false) : reply.code(404).send({ success: false });
});
app.get<{ Params: { id: string } }>('/settlements/:id', async (request, reply) => {
  const { rows } = await settlement.query({ ...SETTLEMENT_DETAIL, values: [request.params.id] });
  return rows[0] ? { success: true, data: rows[0] } : reply.code(404).send({ success: false });
});

/** A page of settlements; with `accounts=1` each partner's lens account (partner.account). */
app.get<{ Querystring: { limit?: string; accounts?: string } }>('/settlements', async (request) => {
  const limit = Number(request.query.limit ?? 20);
  const { rows } = await settlement.query<{ partner: { account_id: string | null } }>({
    ...SETTLEMENT_PAGE,
    values: [limit],
  });
  if (request.query.accounts) {
    const wanted = [...new Set(rows.flatMap((r) => r.partner.account_id ?? []))];
    const accounts = await lens.query<{ account_id: string }>({ ...ACCOUNTS, values: [wanted] });
    const byId = new Map(accounts.rows.map((a) => [a.account_id, a]));
    for (const row of rows) {
      Object.assign(row.partner, { account: byId.get(row.partner.account_id ?? '') ?? null });
    }
  }
  return { success: true, data: { items: rows } };
});

/** The federated query's work: the settlement and its partner, then the partner's account. */
app.get<{ Params: { id: string } }>('/federated/:id', async (request, reply) => {
  const { rows } = await settlement.query<{ partner: { account_id: string | null } }>({
    ...SETTLEMENT_WITH_PARTNER,
    values: [request.params.id],
  });
  const row = rows[0];
  if (!row) return reply.code(404).send({ success: false });
  const accounts = await lens.query({ ...ACCOUNTS, values: [[row.partner.account_id]] });
  return {
    data: {
      settlement: { ...row, partner: { ...row.partner, account: accounts.rows[0] ?? null } },
    },
  };
});

const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ type: 'ready', url: address });
process.on('disconnect', () => void app.close().then(() => process.exit(0)));
