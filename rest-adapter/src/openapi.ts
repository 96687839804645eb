import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { lensOpenApi } from '@campaign/schema';
import { httpError, type HttpError } from './errors.js';

/**
 * The published OpenAPI document of /api/lens/v1 and request-body validation with its schemas
 * (DESIGN.md section 6: the document that is published is the one that validates). Its request
 * schemas are generated from the operations' zod rules, which the lens subgraph parses GraphQL
 * input with: both say the same because they are the same rules.
 */
export const lensDocument = lensOpenApi();

const DOCUMENT_ID = 'lens.json';
const ajv = new Ajv2020({ strict: false, verbose: true });
addFormats.default(ajv);
ajv.addSchema(lensDocument, DOCUMENT_ID);

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** A validator of the request body of `POST <path>` (path relative to /api/lens/v1). */
export function lensBodyValidator(path: string): (body: unknown) => HttpError | null {
  const at = `${DOCUMENT_ID}#/paths/${pointer(path)}/post/requestBody/content/application~1json/schema`;
  const validate: ValidateFunction = ajv.compile({ $ref: at });
  return (body) =>
    validate(body === undefined ? null : body)
      ? null
      : httpError('INVALID_REQUEST', describe(validate.errors ?? []));
}

const where = (instancePath: string) =>
  `body${instancePath
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('')}`;

const depth = (instancePath: string) => (instancePath ? instancePath.split('/').length - 1 : 0);

/** One readable sentence for the first problem, naming the field as the body spells it. */
export function describe(errors: ErrorObject[]): string {
  const composite = errors.find((e) => e.keyword === 'oneOf' || e.keyword === 'not');
  let chosen = errors[0];
  if (composite) {
    // A problem inside one form (a bad handle) says more than "exactly one of the forms".
    const inner = errors.find(
      (e) =>
        e !== composite &&
        e.instancePath.startsWith(composite.instancePath) &&
        depth(e.instancePath) > depth(composite.instancePath),
    );
    chosen = inner ?? composite;
  }
  if (!chosen) return 'body: invalid';
  const description = (chosen.parentSchema as { description?: unknown } | undefined)?.description;
  const place = where(chosen.instancePath);
  if (chosen.keyword === 'additionalProperties') {
    return `${place}: unknown property "${String(chosen.params['additionalProperty'])}"`;
  }
  if ((chosen.keyword === 'oneOf' || chosen.keyword === 'not') && typeof description === 'string') {
    return `${place}: ${description}`;
  }
  const detail = typeof description === 'string' ? ` (${description})` : '';
  return `${place}: ${chosen.message ?? 'invalid'}${detail}`;
}
