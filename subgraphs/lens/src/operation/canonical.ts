import { hash } from 'node:crypto';

/** JSON with object keys sorted at every depth, so key order never changes an input's identity. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The same bytes as before (name, newline, canonical JSON) in one `hash` call (issue 27). */
export function inputHash(operationName: string, input: unknown): string {
  return hash('sha256', `${operationName}\n${canonicalJson(input)}`, 'hex');
}
