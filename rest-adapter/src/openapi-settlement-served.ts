import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isErrorCode, schemaDir, type ErrorCode } from '@campaign/schema';
import { httpError, type HttpError } from './errors.js';
import { describe } from './openapi.js';
import { toOpenApiPath } from './openapi-settlement.js';
import type { Route } from './route.js';

/**
 * The settlement OpenAPI document as committed (schema/openapi/settlement.json, written by
 * `npm run compose` from the route table and the settlement SDL; a test fails when it is stale).
 * The adapter serves this file and checks request bodies with its schemas (DESIGN.md section 6:
 * the document that is published is the one that validates).
 */
export const settlementOpenApiFile = new URL('openapi/settlement.json', schemaDir);

const DOCUMENT_ID = 'settlement.json';
let loaded: { document: Record<string, unknown>; ajv: Ajv2020 } | undefined;

/**
 * Read on first use, not at import: `npm run compose` imports this package to write the file
 * in the first place.
 */
function load() {
  if (loaded) return loaded;
  const document = JSON.parse(readFileSync(settlementOpenApiFile, 'utf8')) as Record<
    string,
    unknown
  >;
  const ajv = new Ajv2020({ strict: false, verbose: true });
  addFormats.default(ajv);
  ajv.addSchema(document, DOCUMENT_ID);
  loaded = { document, ajv };
  return loaded;
}

/** The document the adapter serves at `GET /api/openapi.json`. */
export const settlementDocument = () => load().document;

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The check of a route's body against its documented schema, for the routes whose body is the
 * operation's `$input` and nothing else: exactly what GraphQL's variable coercion would refuse
 * with the same 400 INVALID_REQUEST (the input schemas are never stricter than GraphQL), only
 * earlier and with the body's own field names. Other bodies are left to their route: the
 * webhook's must reach its signature check first, and business verification counts every
 * request before it reads the number.
 */
function bodyValidator(route: Route<never>): ((body: unknown) => HttpError | null) | null {
  if (route.path.startsWith('/api/lens/')) return null; // lens has a document of its own
  if (route.rawBody || route.validateBody || !/\$input: \w+/.test(route.document)) return null;
  const required = /\$input: \w+!/.test(route.document);
  const at = `${DOCUMENT_ID}#/paths/${pointer(toOpenApiPath(route.path))}/${route.method.toLowerCase()}/requestBody/content/application~1json/schema`;
  let validate: ValidateFunction | undefined;
  return (body) => {
    // As the routes send it: no body is `{}` where the input is required, none where optional.
    const value = body ?? (required ? {} : undefined);
    if (value === undefined) return null;
    validate ??= load().ajv.compile({ $ref: at });
    if (validate(value)) return null;
    return httpError(codeOf(validate.errors ?? []), describe(validate.errors ?? []));
  };
}

/**
 * The catalogue code of a refusal: the one the refused value's schema names (`x-error-code`,
 * carried over from the subgraph's rule: a business number's format is INVALID_BUSINESS_NUMBER
 * wherever the number is given), else INVALID_REQUEST.
 */
function codeOf(errors: ErrorObject[]): ErrorCode {
  const named = (errors[0]?.parentSchema as Record<string, unknown> | undefined)?.['x-error-code'];
  return isErrorCode(named) ? named : 'INVALID_REQUEST';
}

/** The routes, each whose body is its GraphQL input checked against the document first. */
export function withDocumentedBodies(routes: Route<never>[]): Route<never>[] {
  return routes.map((route) => {
    const validateBody = bodyValidator(route);
    return validateBody ? { ...route, validateBody } : route;
  });
}
