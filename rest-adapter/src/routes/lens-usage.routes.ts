import type { FastifyRequest } from 'fastify';
import { lensUsage, USAGE_DOCUMENT, usageCsv, type LensUsageData } from '@campaign/schema';
import { defineRoute, ok, type Route } from '../route.js';

/** `?from=&to=` as the query's variables: anything but one string each is '' (lens says 400). */
export function usageVariables(query: unknown): { from: string; to: string } {
  const q = (query ?? {}) as Record<string, unknown>;
  const one = (value: unknown) => (typeof value === 'string' ? value : '');
  return { from: one(q['from']), to: one(q['to']) };
}

const wantsCsv = (request: FastifyRequest) => /\btext\/csv\b/i.test(request.headers.accept ?? '');

/**
 * `GET /api/lens/v1/usage` (the usage view of `@campaign/schema` lens-usage.ts): free, so no
 * Idempotency-Key; JSON `{success, data}`, or the rows as CSV with `Accept: text/csv`.
 */
export const usageRoute = defineRoute<Record<string, LensUsageData>>({
  method: 'GET',
  path: `/api/lens/v1${lensUsage.path}`,
  document: USAGE_DOCUMENT,
  variables: (request) => usageVariables(request.query),
  respond: (data, request) =>
    wantsCsv(request)
      ? {
          status: 200,
          body: usageCsv(data['result']!),
          headers: { 'content-type': 'text/csv; charset=utf-8' },
        }
      : ok(data['result']),
}) as Route<never>;
