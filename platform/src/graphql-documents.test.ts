import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { buildSubgraphSchema } from '@apollo/subgraph';
import type { FastifyInstance } from 'fastify';
import { GraphQLError, parse } from 'graphql';
import { pino } from 'pino';
import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformError } from '@campaign/schema';
import { SUBGRAPH_SECRET_HEADER } from './client-address.js';
import { HIVE_SUBGRAPH_ACCEPT } from './graphql-documents.js';
import { mountGraphQL } from './graphql-server.js';
import { SUBGRAPH_LIMITS } from './graphql-limits.js';
import { createServiceApp, REQUEST_ID_HEADER } from './http.js';

/**
 * The subgraphs' lean path (issue 27) against Apollo Server's full pipeline on the same schema:
 * every answer byte for byte (status, headers, body), the limits, masking and the secret, and
 * which path answered (a plugin of the service's runs on the full pipeline only).
 */

const typeDefs = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
  enum Status { OPEN CLOSED }
  type Item @key(fields: "id") { id: ID! name: String next: Item }
  type Query {
    item(id: ID!): Item
    status(s: Status!): String
    boom: String
    refused: String
    hinted: String
    teapot: String
  }
`);

const item = (id: string) => ({ id, name: `item ${id}` });
const schema = buildSubgraphSchema([
  {
    typeDefs,
    resolvers: {
      Query: {
        item: (_: unknown, { id }: { id: string }) => item(id),
        status: (_: unknown, { s }: { s: string }) => s,
        boom: () => {
          throw new Error('relation "secret_table" does not exist: select * from secret_table');
        },
        refused: () => {
          throw new PlatformError('NOT_FOUND', 'No such item.');
        },
        // An error that sets the answer's status and a header (Apollo's `extensions.http`).
        teapot: () => {
          // Apollo Server's head (a Map of headers); Yoga's typings name another shape.
          const http: unknown = { status: 404, headers: new Map([['x-pot', 'none']]) };
          throw Object.assign(
            new GraphQLError('No such pot.', { extensions: { code: 'NOT_FOUND' } }),
            {
              extensions: { code: 'NOT_FOUND', http },
            },
          );
        },
        hinted: () => {
          throw new GraphQLError('Unknown value. Did you mean "hiddenField"?', {
            extensions: { code: 'BAD_USER_INPUT' },
          });
        },
      },
      Item: {
        __resolveReference: ({ id }: { id: string }) => item(id),
        next: ({ id }: { id: string }) => item(`${id}+1`),
      },
    },
  },
]);

const SECRET = 'the-gateway';
const LIMITS = { ...SUBGRAPH_LIMITS, maxDepth: 3 };

interface Mounted {
  app: FastifyInstance;
  /** Requests Apollo Server's pipeline ran. */
  full: number;
  logs: Record<string, unknown>[];
}

async function mounted(fullPipeline: boolean): Promise<Mounted> {
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const app = createServiceApp({ logger, readiness: async () => undefined });
  const state: Mounted = { app, full: 0, logs };
  const counting: ApolloServerPlugin<BaseContext> = {
    requestDidStart: async () => {
      state.full += 1;
    },
  };
  await mountGraphQL<BaseContext>({
    app,
    schema,
    introspection: false,
    limits: LIMITS,
    subgraphSecret: SECRET,
    plugins: [counting],
    context: async () => ({}),
    ...(fullPipeline ? { fullPipeline: () => true } : {}),
  });
  await app.ready();
  return state;
}

let lean: Mounted;
let full: Mounted;
beforeAll(async () => {
  [lean, full] = await Promise.all([mounted(false), mounted(true)]);
});
afterAll(async () => {
  await Promise.all([lean.app.close(), full.app.close()]);
});

interface Sent {
  body: unknown;
  /** Over the gateway's headers; an undefined value leaves the header out. */
  headers?: Record<string, string | undefined>;
}

/** One request to an app, as the gateway sends it unless told otherwise. */
async function send(to: Mounted, { body, headers = {} }: Sent) {
  const response = await to.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'application/json',
        accept: 'application/json',
        [SUBGRAPH_SECRET_HEADER]: SECRET,
        [REQUEST_ID_HEADER]: 'req-1',
        ...headers,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    payload: JSON.stringify(body),
  });
  const { date: _date, ...rest } = response.headers;
  return { status: response.statusCode, headers: rest, body: response.body };
}

/** The answer of both paths, checked equal byte for byte; which path the lean app took. */
async function compared(sent: Sent) {
  const fullBefore = lean.full;
  const [a, b] = await Promise.all([send(lean, sent), send(full, sent)]);
  expect(a).toEqual(b);
  expect(Object.keys(a.headers)).toEqual(Object.keys(b.headers));
  return { ...a, json: JSON.parse(a.body), lean: lean.full === fullBefore };
}

const query = (text: string, variables?: Record<string, unknown>) => ({
  body: { query: text, ...(variables ? { variables } : {}) },
});

describe("a subgraph's lean path answers as Apollo Server's pipeline does", () => {
  it('answers a known document without the pipeline, `no-store`, Apollo content type', async () => {
    for (let i = 0; i < 2; i++) {
      const answer = await compared(
        query('query Item($id: ID!) { item(id: $id) { id name next { id } } }', { id: '7' }),
      );
      expect(answer.lean).toBe(true);
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers[REQUEST_ID_HEADER]).toBe('req-1');
      expect(answer.json).toEqual({
        data: { item: { id: '7', name: 'item 7', next: { id: '7+1' } } },
      });
    }
  });

  it("gives each gateway engine's Accept Apollo Server's content type", async () => {
    const sent = query('{ item(id: "2") { name } }');
    const types: unknown[] = [];
    for (const accept of [HIVE_SUBGRAPH_ACCEPT, undefined, 'application/json']) {
      const answer = await compared({ ...sent, headers: { accept } });
      expect(answer.lean).toBe(true);
      types.push(answer.headers['content-type']);
    }
    expect(types[0]).toBe('application/graphql-response+json; charset=utf-8');
    const other = await compared({ ...sent, headers: { accept: 'application/*' } });
    expect(other.lean).toBe(false);
  });

  it('answers the federation queries: _service and _entities', async () => {
    const sdl = await compared(query('{ _service { sdl } }'));
    expect(sdl.lean).toBe(true);
    expect(sdl.json.data._service.sdl).toContain('type Item');
    const entities = await compared(
      query('query($r: [_Any!]!) { _entities(representations: $r) { ... on Item { name } } }', {
        r: [{ __typename: 'Item', id: '3' }],
      }),
    );
    expect(entities.lean).toBe(true);
    expect(entities.json).toEqual({ data: { _entities: [{ name: 'item 3' }] } });
  });

  it('masks an unexpected error and logs it under the request id', async () => {
    const answer = await compared({
      ...query('{ boom }'),
      headers: { [REQUEST_ID_HEADER]: 'r-b' },
    });
    expect(answer.lean).toBe(true);
    expect(answer.body).not.toContain('secret_table');
    expect(answer.json.errors[0].extensions.code).toBe('INTERNAL_ERROR');
    for (const { logs } of [lean, full])
      expect(logs.filter((l) => l['requestId'] === 'r-b')).toMatchObject([
        { msg: 'unexpected graphql error', err: { message: expect.stringContaining('secret') } },
      ]);
  });

  it("keeps a catalogue error's words and extensions; hides suggestions", async () => {
    const refused = await compared(query('{ refused }'));
    expect(refused.lean).toBe(true);
    expect(refused.json.errors[0]).toMatchObject({
      message: 'No such item.',
      extensions: { code: 'NOT_FOUND', httpStatus: 404, retryable: false },
    });
    const teapot = await compared(query('{ teapot }'));
    expect(teapot).toMatchObject({ lean: true, status: 404, headers: { 'x-pot': 'none' } });
    expect(teapot.json.errors[0].extensions).toEqual(
      expect.not.objectContaining({ http: expect.anything() }),
    );
    const hinted = await compared(query('{ hinted }'));
    expect(hinted.lean).toBe(true);
    expect(hinted.json.errors[0].message).toBe('Unknown value. [Suggestion hidden]?');
  });

  it('leaves request errors to Apollo Server: limits, syntax, suggestions, variables', async () => {
    const deep = await compared(query('{ item(id: "1") { next { next { next { id } } } } }'));
    expect(deep.lean).toBe(false);
    expect(deep.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const syntax = await compared(query('{ item('));
    expect(syntax.json.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
    const suggestion = await compared(query('{ item(id: "1") { nam } }'));
    expect(suggestion.body).not.toContain('"name"');
    const introspection = await compared(query('{ __schema { types { name } } }'));
    expect(introspection.json.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const statusQuery = 'query($s: Status!) { status(s: $s) }';
    const variable = await compared(query(statusQuery, { s: 'OPN' }));
    expect(variable.lean).toBe(false);
    expect(variable.status).toBe(200);
    expect(variable.json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // The same document with good variables is lean: its text was prepared.
    expect((await compared(query(statusQuery, { s: 'OPEN' }))).lean).toBe(true);
    const strict = await compared({
      ...query(statusQuery, { s: 'OPN' }),
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(strict.status).toBe(400);
  });

  it('refuses a caller without the subgraph secret on both paths', async () => {
    const answer = await compared({
      ...query('{ item(id: "1") { id } }'),
      headers: { [SUBGRAPH_SECRET_HEADER]: 'guess' },
    });
    expect(answer.status).toBe(401);
    expect(answer.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('counts a lean operation in the duration histogram', async () => {
    const observed = async () => {
      const text = await client.register.getSingleMetricAsString(
        'graphql_server_operation_duration_seconds',
      );
      const count = /_count\{graphql_operation_name="LeanCounted",[^}]*\} (\d+)/.exec(text);
      return Number(count?.[1] ?? 0);
    };
    const before = await observed();
    const before_full = lean.full;
    await send(lean, query('query LeanCounted { item(id: "1") { id } }'));
    expect(lean.full).toBe(before_full);
    expect(await observed()).toBe(before + 1);
  });
});
