import { randomUUID } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import { lensOpenApi } from '@campaign/schema';
import { cli } from '../support/cli.js';
import { errorCode, graphql, rest, type HttpResult } from '../support/clients.js';
import { eventually } from '../support/wait.js';

/** The thirteen operations of lens spec section 4. */
export const OPERATION_NAMES = [
  'accounts.profile',
  'accounts.posts',
  'accounts.reels',
  'accounts.taggedPosts',
  'accounts.followers',
  'accounts.following',
  'accounts.guides',
  'accounts.stories',
  'accounts.highlights',
  'accounts.broadcast',
  'accounts.related',
  'accounts.about',
  'accounts.search',
] as const;

export type OperationName = (typeof OPERATION_NAMES)[number];

/**
 * Each operation's REST path and GraphQL field, both named after it by spec section 4:
 * `accounts.taggedPosts` is `POST /accounts/taggedPosts` and the field `accountsTaggedPosts`.
 */
export const OPERATIONS = Object.fromEntries(
  OPERATION_NAMES.map((name) => [
    name,
    {
      path: `/${name.replace('.', '/')}`,
      field: name.replace(/\.(.)/, (_, first: string) => first.toUpperCase()),
    },
  ]),
) as Record<OperationName, { path: string; field: string }>;

export const inputTypeOf = (name: OperationName) => {
  const field = OPERATIONS[name].field;
  return `${field.charAt(0).toUpperCase()}${field.slice(1)}Input`;
};

export const ACCOUNT_SUMMARY_KEYS = [
  'accountId',
  'biography',
  'category',
  'displayName',
  'followerCount',
  'followingCount',
  'handle',
  'isPrivate',
  'isVerified',
  'postCount',
];

export const EXTENDED_PROFILE_KEYS = [
  'businessEmail',
  'businessPhone',
  'externalUrl',
  'highlightCount',
  'isBusinessAccount',
  'profilePictureUrl',
  'pronouns',
  'reelCount',
];

export interface Envelope<D = Record<string, unknown>> {
  operationId: string;
  operationName: string;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'RECONCILIATION_REQUIRED';
  data?: D;
  error?: { code: string; message: string; httpStatus: number; retryable: boolean };
  credits: { reserved: number; charged: number; refunded: number };
  replayed: boolean;
}

export interface LensBody<D = Record<string, unknown>> {
  success: boolean;
  data?: Envelope<D>;
  error?: { code: string; message: string; httpStatus: number; retryable: boolean };
}

// ---- OpenAPI: every REST answer of these tests is checked against the published document ----

const DOCUMENT_ID = 'lens.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(lensOpenApi(), DOCUMENT_ID);
const validators = new Map<string, ValidateFunction>();

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function responseValidator(path: string, method: string, status: number): ValidateFunction {
  const key = `${method} ${path} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const doc = lensOpenApi() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const responses = doc.paths[path]?.[method]?.responses;
    expect(responses, `${method.toUpperCase()} ${path} is documented`).toBeDefined();
    expect(
      responses![String(status)],
      `${method.toUpperCase()} ${path} documents status ${status}`,
    ).toBeDefined();
    const response = responses![String(status)] as { $ref?: string };
    const base = response.$ref
      ? `${DOCUMENT_ID}${response.$ref}`
      : `${DOCUMENT_ID}#/paths/${pointer(path)}/${method}/responses/${status}`;
    validate = ajv.compile({ $ref: `${base}/content/application~1json/schema` });
    validators.set(key, validate);
  }
  return validate;
}

/** Fails unless the body is what the OpenAPI document says `method path` answers with `status`. */
export function expectDocumented(path: string, method: string, result: HttpResult<unknown>) {
  const validate = responseValidator(path, method.toLowerCase(), result.status);
  const valid = validate(result.body);
  expect(
    valid,
    `${method} ${path} ${result.status} against the OpenAPI document: ${JSON.stringify(validate.errors)}\n${JSON.stringify(result.body).slice(0, 2000)}`,
  ).toBe(true);
}

// ---- calls ----

/** API keys with plenty of credits and requests per minute (each key is a tenant of its own). */
export async function createKeys(count: number, credits = 100_000): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      cli('lens:create-key', '--credits', String(credits), '--rate-limit', '100000'),
    ),
  );
}

/** POST an operation over REST, with a fresh Idempotency-Key unless one is given; checked against the document. */
export async function restOp<D = Record<string, unknown>>(
  name: OperationName,
  body: unknown,
  token: string,
  idempotencyKey: string = randomUUID(),
): Promise<HttpResult<LensBody<D>>> {
  const path = OPERATIONS[name].path;
  const result = await rest<LensBody<D>>('POST', `/api/lens/v1${path}`, {
    token,
    body,
    headers: { 'idempotency-key': idempotencyKey },
  });
  expectDocumented(path, 'post', result);
  return result;
}

/** A REST call that must succeed (200, SUCCEEDED): its envelope. */
export async function restOk<D = Record<string, unknown>>(
  name: OperationName,
  body: unknown,
  token: string,
): Promise<Envelope<D> & { data: D }> {
  const result = await restOp<D>(name, body, token);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  const envelope = result.body.data!;
  expect(envelope.status).toBe('SUCCEEDED');
  expect(envelope.operationName).toBe(name);
  expect(result.headers.get('lens-observed-at')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  return envelope as Envelope<D> & { data: D };
}

/** A REST call that must fail with `status` and `code`; its body. */
export async function restFails(
  name: OperationName,
  body: unknown,
  token: string,
  status: number,
  code: string,
): Promise<LensBody> {
  const result = await restOp(name, body, token);
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(result.body.success).toBe(false);
  expect(result.body.error?.code, JSON.stringify(result.body)).toBe(code);
  return result.body;
}

export const ENVELOPE_FIELDS = `operationId operationName status data error { code message httpStatus retryable }
  credits { reserved charged refunded } replayed observedAt`;

export interface GraphQLEnvelope extends Envelope {
  observedAt: string | null;
  accounts?: { accountId: string; handle: string | null; observedAt: string | null }[];
}

/** A lens mutation through the gateway: `{ result, errors }`. */
export async function graphqlOp(
  name: OperationName,
  input: unknown,
  token: string,
  options: { idempotencyKey?: string; selection?: string } = {},
) {
  const field = OPERATIONS[name].field;
  const result = await graphql<{ result: GraphQLEnvelope }>(
    `mutation($key: String!, $input: ${inputTypeOf(name)}!) {
      result: ${field}(idempotencyKey: $key, input: $input) { ${options.selection ?? ENVELOPE_FIELDS} } }`,
    { key: options.idempotencyKey ?? randomUUID(), input },
    token,
  );
  return { result: result.data?.result, errors: result.errors };
}

/** The GraphQL side of restFails: no result, and the first error's code is `code`; the errors. */
export async function graphqlFails(
  name: OperationName,
  input: unknown,
  token: string,
  code: string,
): Promise<{ message: string; extensions?: Record<string, unknown> }[]> {
  const { result, errors } = await graphqlOp(name, input, token);
  expect(result ?? null).toBeNull();
  expect(errorCode(errors), JSON.stringify(errors)).toBe(code);
  return errors ?? [];
}

/** The first GraphQL error's code (one definition, with the shared clients). */
export { errorCode };

export const sortedKeys = (value: object) => Object.keys(value).sort();

/** Polls GET /operations/{id} until the operation leaves RUNNING (or gives up). */
export async function waitForOperation(operationId: string, token: string): Promise<Envelope> {
  const read = async () => {
    const result = await rest<LensBody>('GET', `/api/lens/v1/operations/${operationId}`, {
      token,
    });
    expectDocumented('/operations/{operationId}', 'get', result);
    expect(result.status).toBe(200);
    return result.body.data!;
  };
  return eventually(
    read,
    (op) => op.status !== 'RUNNING',
    `operation ${operationId} ended`,
    20_000,
  );
}
