import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { rest } from '../support/clients.js';
import { valuesOf } from '../support/schema-arbitrary.js';
import { settlementOpenApiFile } from '../support/settlement-openapi.js';
import { createAgency } from './admin-support.js';

/**
 * Issue 21 item 3: the settlement document promises no more than the server checks. Requests are
 * drawn from the published document itself (every body and query parameter its schemas allow,
 * kept only when the document's own validator accepts them) and sent to the running stack; none
 * may be refused for its shape (400 INVALID_REQUEST) nor answer a 5xx. What the document can only
 * say in words is allowed: a business number's check digit, a quotation's total past
 * numeric(15,2), ids of nothing in a body, and a cursor (opaque, so never drawn). Path ids name nothing (a 404 after the
 * body is read) except an agency of this file's own, so nothing else is changed.
 */
type Json = Record<string, unknown>;
const RUNS = Number(process.env['PROMISE_RUNS'] ?? 25);
const SEED = 20261125;

const doc = JSON.parse(readFileSync(settlementOpenApiFile, 'utf8')) as Json;
const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
ajv.addSchema(doc, 'doc');
/** Whether the document accepts `value` for `schema` (its $refs point into the document). */
const valid = (schema: Json, value: unknown) =>
  ajv.validate(JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"doc#/')) as Json, value);

interface Case {
  method: string;
  template: string;
  parameters: Json[];
  body: Json | undefined;
}

const cases: Case[] = Object.entries(doc['paths'] as Record<string, Record<string, Json>>)
  .filter(([path]) => !path.includes('openapi.json') && !path.startsWith('/api/webhooks'))
  .flatMap(([template, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const content = (operation['requestBody'] as Json | undefined)?.['content'] as
        Record<string, Json> | undefined;
      return {
        method: method.toUpperCase(),
        template,
        parameters: ((operation['parameters'] as Json[] | undefined) ?? []).filter(
          (p) => p['in'] === 'query' && p['name'] !== 'cursor',
        ),
        body: content?.['application/json']?.['schema'] as Json | undefined,
      };
    }),
  )
  .filter((c) => c.body || c.parameters.length);

/**
 * A refusal the document states only in words, not a schema's to make: a business number's check
 * digit, a quotation's total, and ids that name nothing (the document cannot know which exist).
 */
const statedInWords = (code: unknown, message: string) =>
  (code === 'INVALID_BUSINESS_NUMBER' && /check digit/.test(message)) ||
  (code === 'INVALID_REQUEST' &&
    /the quotation's total|does not exist|is in the past/.test(message));

let tokens: { admin: string; partner: string };
let agencyId: number;

beforeAll(async () => {
  const [admin, partner] = await Promise.all([
    cli('auth:token', '--role', 'SUPER_ADMIN'),
    cli('auth:token', '--role', 'PARTNER', '--partner', '999999'),
  ]);
  tokens = { admin, partner };
  agencyId = (await createAgency(admin)).id;
});

const pathOf = (template: string) =>
  template
    .replace('/agencies/{id}', `/agencies/${agencyId}`)
    .replace('{id}', 'SET999999999')
    .replace('{quoId}', 'QUO999999999')
    .replace('{code}', 'nobody');

describe('a request the settlement document allows is never refused for its shape', () => {
  it('has operations with bodies and query parameters to draw from', () => {
    expect(cases.filter((c) => c.body).length).toBeGreaterThan(15);
    expect(cases.filter((c) => c.parameters.length).length).toBeGreaterThanOrEqual(4);
  });

  it.each(cases.map((c) => [`${c.method} ${c.template}`, c] as const))(
    '%s',
    async (_, { method, template, parameters, body }) => {
      const drawn = fc.record({
        query: fc.record(
          Object.fromEntries(
            parameters.map((p) => [String(p['name']), valuesOf(doc, p['schema'] as Json)]),
          ),
          { requiredKeys: [] },
        ),
        body: body ? valuesOf(doc, body) : fc.constant(undefined),
      });
      const requests = fc
        .sample(drawn, { numRuns: RUNS * 4, seed: SEED })
        .filter(
          (r) =>
            (!body || valid(body, r.body)) &&
            parameters.every(
              (p) =>
                !(String(p['name']) in r.query) ||
                valid(p['schema'] as Json, r.query[String(p['name'])]),
            ),
        )
        .slice(0, RUNS);
      expect(requests.length, 'valid requests drawn').toBeGreaterThan(0);
      const refusals: string[] = [];
      for (const request of requests) {
        const search = new URLSearchParams(
          Object.entries(request.query).map(([k, v]) => [k, String(v)]),
        ).toString();
        const token = template.startsWith('/api/partner')
          ? tokens.partner
          : template.startsWith('/api/admin')
            ? tokens.admin
            : undefined;
        const answer = await rest<{ error?: { code: string; message: string } }>(
          method,
          `${pathOf(template)}${search ? `?${search}` : ''}`,
          {
            ...(token ? { token } : {}),
            ...(request.body !== undefined ? { body: request.body } : {}),
            headers: { 'idempotency-key': crypto.randomUUID() },
          },
        );
        const error = answer.body?.error;
        if (
          answer.status >= 500 ||
          (answer.status === 400 && !statedInWords(error?.code, error?.message ?? ''))
        )
          refusals.push(
            `${answer.status} ${error?.code}: ${error?.message} ← ${search} ${JSON.stringify(request.body)?.slice(0, 300)}`,
          );
      }
      expect(refusals).toEqual([]);
    },
    // A workbook per request on a machine shared with the other files' load.
    180_000,
  );
});
