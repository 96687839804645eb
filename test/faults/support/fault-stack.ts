import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ReplicaUrls, StackUrls } from '@campaign/stack';
import { connectSql } from '@campaign/stack';
import { cliFor } from '../../support/cli.js';
import type { HttpResult } from '../../support/clients.js';

/** The outside systems the fault tests take down and bring back (behind TCP proxies). */
export type OutsideSystem = 'mail' | 'chat' | 'taxInvoice';

/** What the `faults` project's global setup provides to its test files. */
export interface FaultStack {
  urls: StackUrls;
  /** Each set of services on the shared databases: [0] is the first (`urls`). */
  replicas: ReplicaUrls[];
  /** A gateway on the Hive engine (and an adapter in front of it) on the first set's subgraphs. */
  hive: ReplicaUrls;
  /** The control server that stops the database, kills services, takes systems down. */
  control: string;
  mailSink: string;
  chat: string;
  taxInvoice: string;
  /** The file the services log to (empty while STACK_LOGS=1 sends their logs to the console). */
  serviceLog: string;
}

let booted: FaultStack | undefined;
/** Called by the faults tier's setup file (`faults-ready.ts`) once the faults stack is up. */
export const useFaultStack = (stack: FaultStack) => void (booted = stack);
export const faults = (): FaultStack => {
  if (!booted) throw new Error('the faults stack is known only in the faults tier');
  return booted;
};

/** The services' log lines that name one of `requestIds`, to explain an unexpected answer. */
export async function serviceLogLines(requestIds: readonly string[]): Promise<string[]> {
  const ids = requestIds.filter(Boolean);
  if (!ids.length) return [];
  const text = await readFile(faults().serviceLog, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => ids.some((id) => line.includes(id)));
}

async function control<T>(method: 'GET' | 'POST', path: string): Promise<T> {
  const response = await fetch(`${faults().control}${path}`, { method });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`control ${path}: ${JSON.stringify(body)}`);
  return body;
}

export interface ServiceState {
  name: string;
  pid: number | undefined;
  restarts: number;
}

export const services = () => control<ServiceState[]>('GET', '/services');
export const stackLog = () => control<string[]>('GET', '/log');
export const stopDatabase = () => control('POST', '/database/stop');
export const startDatabase = () => control('POST', '/database/start');
export const systemDown = (system: OutsideSystem) => control('POST', `/outage/${system}/down`);
export const systemUp = (system: OutsideSystem) => control('POST', `/outage/${system}/up`);
/** The system answers each new connection `ms` late (0: promptly again). */
export const systemSlow = (system: OutsideSystem, ms: number) =>
  control('POST', `/slowness/${system}/${ms}`);

/** Second copies accepted so far in this run (in a lost-acknowledgement window), per channel. */
export const acceptedCopies = () =>
  control<{ email: number; chat: number }>('GET', '/accepted-copies');
export const acceptCopies = (copies: { email: number; chat: number }) =>
  control('POST', `/accepted-copies/${copies.email}/${copies.chat}`);

/**
 * Signals the service named `name` (SIGKILL) and waits until the orchestrator restarted it, said
 * so in its log (what `npm start` shows) and the new process answers `/readyz`; the time it took.
 */
export async function killAndAwaitRestart(
  name: string,
  signal: NodeJS.Signals = 'SIGKILL',
  timeoutMs = 60_000,
): Promise<number> {
  const before = (await services()).find((s) => s.name === name);
  if (!before?.pid) throw new Error(`no running service ${name}`);
  const started = Date.now();
  process.kill(before.pid, signal);
  const now = await eventually(
    async () => (await services()).find((s) => s.name === name)!,
    (state) => state.restarts > before.restarts && state.pid !== undefined,
    `${name} restarted`,
    timeoutMs,
  );
  const restartedMs = Date.now() - started;
  const log = (await stackLog()).join('\n');
  expect(log).toContain(`${name} exited (signal ${signal}); restarting in`);
  expect(log).toContain(`${name} restarted (pid ${now.pid})`);
  expect(now.pid).not.toBe(before.pid);
  return restartedMs;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run cli` against the fault stack's databases; the last line of its output. */
export const cli = (...args: string[]) => cliFor(faults().urls, ...args);

/** An HTTP answer: the same shape as the stack tests' `rest` results. */
export type Answer<T = Record<string, unknown>> = HttpResult<T>;

/** One HTTP call to a REST adapter; a refused connection is status 0 (a gateway being restarted). */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: kept as text for the assertion message.
    }
    return { status: response.status, headers: response.headers, body: body as T };
  } catch (error) {
    return { status: 0, headers: new Headers(), body: { error: String(error) } as T };
  }
}

/** A billed lens call with a fresh idempotency key (or the one given). */
export const lensCall = (
  base: string,
  key: string,
  path: string,
  body: unknown,
  idempotencyKey: string = randomUUID(),
) =>
  call<LensAnswer>(base, 'POST', `/api/lens/v1${path}`, {
    token: key,
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });

export interface LensAnswer {
  success: boolean;
  data?: { operationId: string; status: string; credits: Record<string, number> };
  error?: { code: string; retryable: boolean; operationId?: string };
}

/** GraphQL on a gateway that must succeed. */
export async function graphqlOk<T>(
  gateway: string,
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const response = await fetch(gateway, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const result = (await response.json()) as { data?: T; errors?: unknown[] };
  if (result.errors?.length) throw new Error(JSON.stringify(result.errors));
  return result.data!;
}

/** The statuses of the operations of the tenant that owns `key`, straight from the database. */
export async function operationsOf(key: string): Promise<{ id: string; status: string }[]> {
  const sql = await connectSql(faults().urls.lensDatabase);
  try {
    return await sql.query<{ id: string; status: string }>(
      `select o.id::text as id, o.status from operation o
         join api_key k on k.tenant_id = o.tenant_id
        where k.key_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [key],
    );
  } finally {
    await sql.end();
  }
}

/** Polls until a condition holds: the one poller of test/support (no fixed sleeps). */
import { eventually } from '../../support/sinks.js';

export { eventually as until };
