import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { schemaDir } from '@campaign/schema';

/**
 * The settlement OpenAPI document (schema/openapi/settlement.json) as a test oracle: every answer
 * the shared REST client receives from a path it documents is checked against it (status and
 * body), so each whole-stack test of the admin, partner, public and webhook paths also proves the
 * published document right.
 */

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, unknown> }>;
}
export interface SettlementDocument {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, Record<string, unknown>>>;
}

export const settlementOpenApiFile = new URL('openapi/settlement.json', schemaDir);

const DOCUMENT_ID = 'settlement.json';
let loaded: { doc: SettlementDocument; ajv: Ajv2020; templates: Template[] } | undefined;

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal segments: a literal path wins over a parameter (as the adapter's router does). */
  literals: number;
}

function load() {
  if (loaded) return loaded;
  const doc = JSON.parse(readFileSync(settlementOpenApiFile, 'utf8')) as SettlementDocument;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(doc, DOCUMENT_ID);
  const templates = Object.keys(doc.paths)
    .map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`),
      literals: path.split('/').filter((s) => !s.startsWith('{')).length,
    }))
    .sort((a, b) => b.literals - a.literals);
  loaded = { doc, ajv, templates };
  return loaded;
}

export const settlementDocument = () => load().doc;

/** The documented path template a request path falls under, or null (lens, health, unknown). */
export function documentedPath(urlPath: string): string | null {
  const path = urlPath.split('?')[0]!;
  if (!/^\/api\/(admin|partner|public|webhooks)\//.test(path)) return null;
  return load().templates.find((t) => t.pattern.test(path))?.path ?? null;
}

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const validators = new Map<string, ValidateFunction>();

/**
 * Why an answer does not match the document, or null when it does (or when the path and method
 * are not in it: an unknown path's 404 is the adapter's, not an operation's).
 */
export function documentProblem(
  method: string,
  urlPath: string,
  status: number,
  contentType: string | null,
  body: unknown,
): string | null {
  const path = documentedPath(urlPath);
  const operation = path ? load().doc.paths[path]?.[method.toLowerCase()] : undefined;
  if (!path || !operation) return null;
  const what = `${method.toUpperCase()} ${path} → ${status}`;
  const response = operation.responses[String(status)];
  if (!response) return `${what}: the document lists no such status for this path`;
  const base = response.$ref
    ? `${DOCUMENT_ID}${response.$ref}`
    : `${DOCUMENT_ID}#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${status}`;
  const content = response.$ref
    ? load().doc.components['responses']?.[response.$ref.split('/').at(-1)!]?.['content']
    : response.content;
  const types = Object.keys((content ?? {}) as object);
  const type = (contentType ?? '').split(';')[0]!.trim();
  if (!types.includes(type)) return `${what}: content type ${type}, documented ${types.join(', ')}`;
  if (type !== 'application/json') return null; // a file download: its bytes have no schema
  const key = `${base} ${type}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = load().ajv.compile({ $ref: `${base}/content/${pointer(type)}/schema` });
    validators.set(key, validate);
  }
  if (validate(body)) return null;
  return `${what}: the body does not match the document: ${JSON.stringify(validate.errors)}\n${JSON.stringify(body).slice(0, 1500)}`;
}

/** Throws when the answer contradicts the document (the shared clients call this on each one). */
export function assertDocumented(
  method: string,
  urlPath: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const problem = documentProblem(method, urlPath, status, contentType, body);
  if (problem) throw new Error(`OpenAPI (schema/openapi/settlement.json): ${problem}`);
}
