import type { FastifyRequest } from 'fastify';
import {
  GraphQLJsonSchema,
  schemaRef,
  type InputRules,
  type JsonSchema as Schema,
  type OperationShape,
} from '@campaign/schema';
import { respondTo, type Route } from './route.js';
import {
  audienceOf,
  errorCodesOf,
  errorResponse,
  responseName,
  type Audience,
} from './openapi-settlement-errors.js';

/** Every mutating admin and partner path takes an optional Idempotency-Key (issue 23 item 5). */
const keyed = (route: Route<never>, audience: string) =>
  (audience === 'admin' || audience === 'partner') &&
  route.document.trimStart().startsWith('mutation');

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same request answers the stored status and body ' +
    'with `Idempotent-Replayed: true` and changes nothing more; with another request, 409 ' +
    'IDEMPOTENCY_KEY_REUSED; while the first runs, 409 IDEMPOTENCY_KEY_IN_PROGRESS. Keys are ' +
    "the caller's own (role and subject) and kept at least 24 hours.",
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

/**
 * One operation of the settlement OpenAPI document from one route: its parameters, body,
 * success answer and error answers (openapi-settlement.ts assembles the document).
 */

export interface SettlementOpenApiSources {
  /** schema/settlement.graphql as committed. */
  sdl: string;
  /** The webhook body's JSON Schema (the settlement subgraph's zod rule, as JSON Schema). */
  webhookBody: Schema;
  /** The settlement subgraph's input rules (its zod models, as JSON Schema). */
  inputRules?: InputRules;
}

/** What a workbook download is (the quotation paths answer the file itself). */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Variables that are the query string of a list. */
const QUERY_VARIABLES = new Set(['filter', 'cursor', 'limit']);

const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

const SECURITY: Record<Audience, Record<string, string[]>[]> = {
  admin: [{ AdminBearer: [] }],
  partner: [{ PartnerBearer: [] }],
  public: [],
  webhook: [{ TaxInvoiceSignature: [] }],
};

const tagOf = (path: string) => path.split('/').slice(2, 4).join(' ');
const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const sentence = (field: string) =>
  capitalised(field.replace(/([A-Z])/g, ' $1').toLowerCase()).trim();

/** A query parameter's schema: the URL carries text, so an ID is a string there. */
function queryValue(schema: Schema): Schema {
  const type = schema['type'];
  return Array.isArray(type) && type.includes('string') ? { ...schema, type: 'string' } : schema;
}

export class OperationBuilder {
  readonly gql: GraphQLJsonSchema;
  readonly responses: Record<string, Schema> = {};

  constructor(private readonly sources: SettlementOpenApiSources) {
    this.gql = new GraphQLJsonSchema(sources.sdl, sources.inputRules);
  }

  operation(route: Route<never>): Schema {
    const audience = audienceOf(route.path);
    const shape = this.gql.operation(route.document, capitalised(audience));
    const inPath = new Set(pathParameters(route.path));
    const byName = new Map(shape.variables.map((v) => [v.name, v]));
    const body = this.requestBody(route, shape, inPath);
    const input = byName.get('input');
    const mentionsBusinessNumber = (
      input ? this.gql.inputFields(input.typeName).map((f) => f.name) : [...byName.keys()]
    ).includes('businessNumber');
    const errors = errorCodesOf(route, { list: byName.has('cursor'), mentionsBusinessNumber });
    return {
      operationId: shape.field,
      summary: sentence(shape.field),
      ...(shape.description ? { description: shape.description } : {}),
      tags: [tagOf(route.path)],
      security: SECURITY[audience],
      parameters: [
        ...[...inPath].map((name) => ({
          name,
          in: 'path',
          required: true,
          schema: { type: 'string', minLength: 1 },
        })),
        ...this.queryParameters(shape),
        ...(keyed(route, audience) ? [IDEMPOTENCY_KEY_PARAMETER] : []),
      ],
      ...(body ? { requestBody: body } : {}),
      responses: {
        ...this.success(route, shape),
        ...Object.fromEntries(
          Object.entries(errors).map(([status, codes]) => [
            status,
            { $ref: `#/components/responses/${this.errorComponent(Number(status), codes)}` },
          ]),
        ),
      },
    };
  }

  private queryParameters(shape: OperationShape): Schema[] {
    const byName = new Map(shape.variables.map((v) => [v.name, v]));
    const filter = byName.get('filter');
    const described = (name: string) => {
      const description = shape.argumentDescriptions[name];
      return description ? { description } : {};
    };
    return [
      ...(filter
        ? this.gql.inputFields(filter.typeName).map((f) => ({
            name: f.name,
            in: 'query',
            required: false,
            ...(f.description ? { description: f.description } : {}),
            schema: queryValue(f.schema),
          }))
        : []),
      ...(byName.has('cursor')
        ? [
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: "The previous page's nextCursor.",
              schema: { type: 'string' },
            },
          ]
        : []),
      ...(byName.has('limit')
        ? [
            {
              name: 'limit',
              in: 'query',
              required: false,
              ...described('limit'),
              // The variable's schema (its rule's range included); a query string has no null.
              schema: { ...byName.get('limit')!.schema, type: 'integer' },
            },
          ]
        : []),
    ];
  }

  /** The body: the webhook's signed event, the operation's `input`, or its other variables. */
  private requestBody(route: Route<never>, shape: OperationShape, inPath: Set<string>) {
    const json = (schema: Schema, required: boolean) => ({
      required,
      content: { 'application/json': { schema } },
    });
    if (route.rawBody) return json(this.sources.webhookBody, true);
    const input = shape.variables.find((v) => v.name === 'input');
    if (input) return json(schemaRef(input.typeName), input.required);
    const fields = shape.variables.filter(
      (v) => !inPath.has(v.name) && !QUERY_VARIABLES.has(v.name) && v.name !== 'id',
    );
    if (fields.length === 0) return null;
    // Read field by field (public.routes.ts): fields it does not read are ignored, not refused.
    return json(
      {
        type: 'object',
        required: fields.filter((f) => f.required).map((f) => f.name),
        properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
      },
      true,
    );
  }

  /** The success answer, as the route's own `respond` shapes it. */
  private success(route: Route<never>, shape: OperationShape): Record<string, Schema> {
    const probe = respondTo(
      route,
      { result: { fileName: 'f', contentType: XLSX, base64: '' } },
      {} as FastifyRequest,
    );
    if (Buffer.isBuffer(probe.body)) {
      return {
        [probe.status]: {
          description: 'The workbook itself (XLSX), as a download.',
          headers: {
            'Content-Disposition': {
              description: 'attachment; filename="<name>.xlsx"',
              schema: { type: 'string' },
            },
          },
          content: { [XLSX]: { schema: { type: 'string', contentMediaType: XLSX } } },
        },
      };
    }
    return {
      [probe.status]: {
        description: probe.status === 201 ? 'Created: the new resource.' : 'The result.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['success', 'data'],
              properties: { success: { const: true }, data: shape.result },
            },
          },
        },
      },
    };
  }

  private errorComponent(status: number, codes: Parameters<typeof errorResponse>[1]): string {
    const name = responseName(status, codes);
    const response = errorResponse(status, codes);
    const existing = this.responses[name];
    if (existing && JSON.stringify(existing) !== JSON.stringify(response))
      throw new Error(`two error answers named ${name}`);
    this.responses[name] = response;
    return name;
  }
}
