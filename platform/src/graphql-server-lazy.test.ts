import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * A subgraph loads Apollo Server on first use (issue 27, idle RSS): the lean path answers the
 * gateway's documents without it, and the first request that needs the full pipeline makes and
 * starts it with every setting (limits, masking, introspection off, the service's plugins). In a
 * process of its own: the unit tier shares one module graph per worker, where another file has
 * loaded `@apollo/server` already. Every module the process resolves is recorded by a resolve
 * hook (ES imports) and read from require.cache (CommonJS).
 */

const here = dirname(fileURLToPath(import.meta.url));
const url = (file: string) => JSON.stringify(pathToFileURL(join(here, file)).href);

const HOOKS = `
let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  port.postMessage(resolved.url);
  return resolved;
}`;

const CHILD = `
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (resolved) => seen.add(resolved));
port1.unref();
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), {
  data: { port: port2 },
  transferList: [port2],
});
const require = createRequire(${url('graphql-server.ts')});
const { mountGraphQL } = await import(${url('graphql-server.ts')});
const { createServiceApp } = await import(${url('http.ts')});
const { SUBGRAPH_LIMITS } = await import(${url('graphql-limits.ts')});
const { buildSubgraphSchema } = require('@apollo/subgraph');
const { parse } = require('graphql');
const { pino } = require('pino');

/** Whether any module of Apollo Server or its Fastify integration was loaded, after the hooks' news. */
const apolloLoaded = async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  const apollo = (file) => /[\\\\/]@(apollo[\\\\/]server|as-integrations[\\\\/]fastify)[\\\\/]/.test(file);
  return [...seen].some(apollo) || Object.keys(require.cache).some(apollo);
};

const schema = buildSubgraphSchema([{
  typeDefs: parse(\`
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
    type Item @key(fields: "id") { id: ID! next: Item }
    type Query { item(id: ID!): Item boom: String }
  \`),
  resolvers: {
    Query: {
      item: (_, { id }) => ({ id }),
      boom: () => { throw new Error('relation "secret_table" does not exist'); },
    },
    Item: { next: ({ id }) => ({ id: id + '+1' }) },
  },
}]);
const app = createServiceApp({ logger: pino({ level: 'silent' }), readiness: async () => undefined });
let plugin = 0;
await mountGraphQL({
  app,
  schema,
  introspection: false,
  limits: { ...SUBGRAPH_LIMITS, maxDepth: 3 },
  subgraphSecret: 'the-gateway',
  plugins: [{ requestDidStart: async () => { plugin += 1; } }],
  fullPipeline: (operation) => operation.name?.value === 'Full',
  context: async () => ({}),
});
await app.ready();
const send = async (query) => {
  const response = await app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-subgraph-secret': 'the-gateway' },
    payload: JSON.stringify({ query }),
  });
  return { status: response.statusCode, body: response.json() };
};
const atStart = await apolloLoaded();
const lean = await send('{ item(id: "1") { id } }');
const afterLean = await apolloLoaded();
// The first requests that need the full pipeline arrive together: one server is made for them.
const [deep, introspection, full] = await Promise.all([
  send('{ item(id: "1") { next { next { next { id } } } } }'),
  send('{ __schema { types { name } } }'),
  send('query Full { boom }'),
]);
const afterFull = await apolloLoaded();
await app.close();
console.log(JSON.stringify({ atStart, lean, afterLean, deep, introspection, full, afterFull, plugin }));
`;

describe("a subgraph's Apollo Server", () => {
  it('is not loaded until a request needs it, and then answers with every setting', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', '@swc-node/register/esm-register', '--input-type=module', '-e', CHILD],
      // The repository's root: swc's register reads its tsconfig.json.
      { cwd: join(here, '..', '..'), encoding: 'utf8' },
    );
    const seen = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(seen.atStart).toBe(false);
    expect(seen.lean).toEqual({ status: 200, body: { data: { item: { id: '1' } } } });
    expect(seen.afterLean).toBe(false);
    expect(seen.deep.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(seen.introspection.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    // Masked: the detail stays in the log.
    expect(seen.full.status).toBe(200);
    expect(seen.full.body.errors[0].extensions.code).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(seen.full.body)).not.toContain('secret_table');
    expect(seen.afterFull).toBe(true);
    // The service's plugin ran on each of the three.
    expect(seen.plugin).toBe(3);
  });
});
