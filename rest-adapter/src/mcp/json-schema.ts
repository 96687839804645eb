import { lensDocument } from '../openapi.js';

/**
 * Tool schemas are taken from the published lens OpenAPI document, so a tool asks for exactly
 * the REST body and promises exactly the REST envelope. A tool schema must stand alone (a client
 * has no document to resolve `#/components/...` in), so the components a schema uses are copied
 * into its `$defs` and its references rewritten to point there.
 */
export type JsonSchema = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';
const DEFS = '#/$defs/';

function components(): Record<string, JsonSchema> {
  const document = lensDocument as { components: { schemas: Record<string, JsonSchema> } };
  return document.components.schemas;
}

/** A deep copy with component references rewritten; each name referenced goes into `used`. */
function rewritten(value: unknown, used: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewritten(item, used));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith(COMPONENTS)) {
        const name = inner.slice(COMPONENTS.length);
        used.add(name);
        return [key, `${DEFS}${name}`];
      }
      return [key, rewritten(inner, used)];
    }),
  );
}

/** The component `name` of the lens document as a self-contained JSON Schema. */
export function standaloneSchema(name: string): JsonSchema {
  const all = components();
  const root = all[name];
  if (!root) throw new Error(`no schema ${name} in the lens document`);
  const used = new Set<string>();
  const schema = rewritten(root, used) as JsonSchema;
  const defs: Record<string, JsonSchema> = {};
  // Components refer to others (Post → AccountSummary → ...): copy until none is missing.
  for (let pending = [...used]; pending.length; pending = [...used].filter((n) => !defs[n])) {
    for (const each of pending) {
      const component = all[each];
      if (!component) throw new Error(`no schema ${each} in the lens document`);
      defs[each] = rewritten(component, used) as JsonSchema;
    }
  }
  return Object.keys(defs).length ? { ...schema, $defs: defs } : schema;
}
