import type { Sql } from '@campaign/stack';
import { afterAll, beforeAll } from 'vitest';
import * as f from './support.js';

/** Fixtures of the agency whole-stack tests (spec 4.4 and 2.4, issue 12). */

export const base = '/api/admin/agencies';

export interface AgencyContext {
  superAdmin: string;
  /** An ADMIN scoped to agency 2. */
  agency2Admin: string;
  db: Sql;
  /** The rows and audit entries of agencies with these codes: what a refused call must not add. */
  written(codes: string[]): Promise<{ agencies: number; entries: number }>;
}

/** The prologue of an agency test file, as hooks of the calling `describe`. */
export function useAgencies(): AgencyContext {
  const ctx = {} as AgencyContext;
  ctx.written = async (codes) => {
    const [row] = await ctx.db.query<{ agencies: number; entries: number }>(
      `select count(*)::int as agencies,
         (select count(*)::int from change_audit c join agency g on c.entity_id = g.id::text
           and c.entity_type = 'AGENCY' where lower(g.code) = any($1)) as entries
       from agency where lower(code) = any($1)`,
      [codes.map((code) => code.toLowerCase())],
    );
    return row!;
  };
  beforeAll(async () => {
    [ctx.superAdmin, ctx.agency2Admin, ctx.db] = await Promise.all([
      f.adminToken(),
      f.adminToken('2'),
      f.database(),
    ]);
  });
  afterAll(() => ctx.db?.end());
  return ctx;
}
