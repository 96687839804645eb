import fc from 'fast-check';

/**
 * Requests generated from the published OpenAPI documents (issue 16): every path and method,
 * with parameters, bodies and headers that are sometimes right and mostly wrong in every way a
 * client can get them wrong (types, limits, unicode, NUL, huge values, missing and duplicated
 * headers), under each role's real credential.
 */
type Json = Record<string, unknown>;

export type Role = 'none' | 'garbage' | 'lens' | 'mcp' | 'superAdmin' | 'admin' | 'partner';
export type Credentials = Record<Exclude<Role, 'none' | 'garbage'>, string>;

export interface Endpoint {
  method: string;
  /** The full path template, e.g. `/api/lens/v1/operations/{operationId}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Top-level property names of the JSON body (empty without a body). */
  bodyProps: string[] | null;
  /** The property names of the objects inside a body's arrays (a quotation's lines), by array. */
  itemProps: Record<string, string[]>;
  idempotent: boolean;
}

const ref = (doc: Json, value: Json): Json => {
  const pointer = value['$ref'];
  if (typeof pointer !== 'string') return value;
  return pointer
    .slice(2)
    .split('/')
    .reduce<Json>((node, key) => node[key] as Json, doc);
};

/** Every operation of a document; `prefix` is its server path (`/api/lens/v1` or ''). */
export function endpointsOf(doc: Json, prefix: string): Endpoint[] {
  const endpoints: Endpoint[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const operation = raw as Json;
      const params = ((operation['parameters'] as Json[] | undefined) ?? []).map((p) =>
        ref(doc, p),
      );
      const content = (ref(doc, (operation['requestBody'] as Json | undefined) ?? {})['content'] ??
        {}) as Record<string, Json>;
      const schema = content['application/json']?.['schema'] as Json | undefined;
      const properties = schema ? ((ref(doc, schema)['properties'] as Json) ?? {}) : null;
      const props = properties ? Object.keys(properties) : null;
      const itemProps: Record<string, string[]> = {};
      for (const [name, property] of Object.entries(properties ?? {})) {
        const items = (property as Json)['items'] as Json | undefined;
        const itemProperties = items ? (ref(doc, items)['properties'] as Json | undefined) : null;
        if (itemProperties) itemProps[name] = Object.keys(itemProperties);
      }
      endpoints.push({
        method: method.toUpperCase(),
        path: `${prefix}${path}`,
        pathParams: params.filter((p) => p['in'] === 'path').map((p) => String(p['name'])),
        queryParams: params.filter((p) => p['in'] === 'query').map((p) => String(p['name'])),
        bodyProps: operation['requestBody'] ? (props ?? []) : null,
        itemProps,
        idempotent: params.some((p) => String(p['name']).toLowerCase() === 'idempotency-key'),
      });
    }
  }
  return endpoints;
}

const nastyString = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ maxLength: 8 }).map((s) => `${s}\u0000`),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    'x'.repeat(20_000),
    '😀'.repeat(300),
    "' or 1=1 --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    'minji.daily',
    'missing_fuzz',
    '1018623450',
    '2026-13-45',
    'SETTLEMENT_COMPLETED',
  ),
);

/** Where an id belongs (issue 21): past 2^53, negative, fractional, text. */
const nastyId = fc.constantFrom(
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  1e21,
  1.5,
  0,
  -1,
  'abc',
  '1',
  '9007199254740993',
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  nastyId,
  fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, 1e21, 101),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(nastyString, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), nastyString, { maxKeys: 3 }),
);

/** A property's value: nasty, or for an array of objects, such objects with nasty values. */
const propertyValue = (items: string[] | undefined): fc.Arbitrary<unknown> =>
  items
    ? fc.oneof(
        nastyValue,
        fc.array(
          fc.record(Object.fromEntries(items.map((p) => [p, fc.oneof(nastyId, nastyValue)])), {
            requiredKeys: [],
          }),
          { minLength: 1, maxLength: 3 },
        ),
      )
    : nastyValue;

/**
 * A body: the documented properties (and those of the objects in its arrays) with wrong (or
 * right) values, any JSON, or not JSON.
 */
const bodyOf = (props: string[], itemProps: Record<string, string[]>): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc
      .record(Object.fromEntries(props.map((p) => [p, propertyValue(itemProps[p])])), {
        requiredKeys: [],
      })
      .chain((known) =>
        fc
          .dictionary(fc.string({ maxLength: 8 }), nastyValue, { maxKeys: 2 })
          .map((extra) => Buffer.from(JSON.stringify({ ...known, ...extra }))),
      ),
    fc
      .record({ accountRef: fc.record({ handle: nastyString }, { requiredKeys: [] }) })
      .map((b) => Buffer.from(JSON.stringify(b))),
    fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
    fc
      .constantFrom('not json', '{', '{"a":', '[]', 'null', '"\u0000"', `${'['.repeat(5000)}`)
      .map((s) => Buffer.from(s)),
  );

const idOf = fc.oneof(
  fc.constantFrom(
    'SET999999',
    'QUO999999',
    '999999',
    '0',
    '-1',
    'AG1',
    '00000000-0000-4000-8000-000000000000',
  ),
  nastyString.filter((s) => s.length > 0),
);

/** A value as query-string text (objects as their JSON). */
const asText = (value: unknown) =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** Header values as a client might send them; `undefined`: not sent. */
const headerValue = fc.oneof(
  fc.constant(undefined),
  fc.uuid(),
  fc.constantFrom('', 'k'.repeat(300), '한글-키', 'key\u0000nul', 'a b'),
);

/** Percent-encodes the UTF-8 bytes of a path segment (a lone surrogate included, as U+FFFD). */
const encodeSegment = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

export interface FuzzRequest {
  method: string;
  /** The path as sent (parameters substituted and encoded, query string included). */
  path: string;
  role: Role;
  headers: [string, string][];
  body: Buffer | undefined;
}

/** The role a path is for (lens key, admin or partner token, none). */
const ownRole = (path: string): Role =>
  path.startsWith('/api/lens')
    ? 'lens'
    : path.startsWith('/api/admin')
      ? 'superAdmin'
      : path.startsWith('/api/partner')
        ? 'partner'
        : 'none';

/** A request as a careful client sends it: the path's role, one of each header, JSON. */
function wellFormedRequest(
  endpoint: Endpoint,
  credentials: Credentials,
  drawn: { handle: string; realId: string; secondKey: string; body: Buffer | null },
): FuzzRequest {
  const role = ownRole(endpoint.path);
  let path = endpoint.path;
  for (const name of endpoint.pathParams) path = path.replace(`{${name}}`, drawn.realId);
  const headers: [string, string][] = [];
  if (role !== 'none' && role !== 'garbage')
    headers.push(['Authorization', `Bearer ${credentials[role]}`]);
  if (endpoint.idempotent) headers.push(['Idempotency-Key', drawn.secondKey]);
  let body: Buffer | undefined;
  if (endpoint.bodyProps) {
    body = endpoint.path.startsWith('/api/lens')
      ? Buffer.from(JSON.stringify({ accountRef: { handle: drawn.handle } }))
      : (drawn.body ?? Buffer.from('{}'));
    headers.push(['Content-Type', 'application/json']);
  }
  return { method: endpoint.method, path, role, headers, body };
}

/** One request for `endpoint`: the arbitrary fast-check draws from. */
export function requestOf(endpoint: Endpoint, credentials: Credentials): fc.Arbitrary<FuzzRequest> {
  const roles: Role[] = ['none', 'garbage', 'lens', 'mcp', 'superAdmin', 'admin', 'partner'];
  return fc
    .record({
      role: fc.constantFrom(...roles),
      ids: fc.array(idOf, {
        minLength: endpoint.pathParams.length,
        maxLength: endpoint.pathParams.length,
      }),
      query: fc.record(
        Object.fromEntries(endpoint.queryParams.map((q) => [q, nastyValue.map(asText)])),
        { requiredKeys: [] },
      ),
      body: endpoint.bodyProps
        ? fc.option(bodyOf(endpoint.bodyProps, endpoint.itemProps), { freq: 8 })
        : fc.constant(null),
      idempotencyKey: headerValue,
      secondKey: fc.uuid(),
      duplicate: fc.constantFrom('none', 'authorization', 'idempotency-key', 'content-type'),
      // A third of the requests are well-formed (right role, headers, a plausible body).
      wellFormed: fc.boolean().chain((b) => (b ? fc.boolean() : fc.constant(false))),
      handle: fc.constantFrom('minji.daily', 'missing_fuzz', 'private_fuzz', 'verified_fuzz'),
      realId: fc.constantFrom('SET1', 'SET2', 'QUO1', '1', '2'),
      contentType: fc.constantFrom(
        'application/json',
        'text/plain',
        'application/json; charset=latin1',
        '',
      ),
    })
    .map((drawn) => {
      if (drawn.wellFormed) return wellFormedRequest(endpoint, credentials, drawn);
      const { role, ids, query, body, idempotencyKey, secondKey, duplicate, contentType } = drawn;
      let path = endpoint.path;
      endpoint.pathParams.forEach((name, i) => {
        path = path.replace(`{${name}}`, encodeSegment(ids[i]!));
      });
      const search = new URLSearchParams(query as Record<string, string>).toString();
      if (search) path = `${path}?${search}`;
      const headers: [string, string][] = [];
      if (role === 'garbage') headers.push(['Authorization', 'Bearer not-a-credential']);
      else if (role !== 'none') headers.push(['Authorization', `Bearer ${credentials[role]}`]);
      if (idempotencyKey !== undefined) headers.push(['Idempotency-Key', idempotencyKey]);
      if (body && contentType) headers.push(['Content-Type', contentType]);
      if (duplicate === 'authorization')
        headers.push(['Authorization', `Bearer ${credentials.lens}`]);
      if (duplicate === 'idempotency-key') headers.push(['Idempotency-Key', secondKey]);
      if (duplicate === 'content-type') headers.push(['Content-Type', 'text/plain']);
      return { method: endpoint.method, path, role, headers, body: body ?? undefined };
    });
}
