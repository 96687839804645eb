import { randomBytes } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, inject } from 'vitest';
import { dropDatabase, ensureDatabase } from '@campaign/stack';
import { initLensOrm, migrateLens } from '@campaign/lens';
import type { Principal } from '@campaign/platform';
import {
  Agency,
  createSettlementServices,
  initSettlementOrm,
  migrateSettlement,
} from '@campaign/settlement';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres:// URL of the service tier's PostgreSQL server (any database name). */
    serviceDatabaseServer: string;
  }
}

const MIGRATE = {
  lens: { init: initLensOrm, migrate: migrateLens },
  settlement: { init: initSettlementOrm, migrate: migrateSettlement },
} as const;

/**
 * A database of its own for one test file, migrated like production and dropped afterwards: the
 * service tier tests rules against real PostgreSQL without starting any service.
 */
export function useServiceDatabase(kind: keyof typeof MIGRATE): () => MikroORM {
  let orm: MikroORM | undefined;
  let url: string;
  beforeAll(async () => {
    const server = new URL(inject('serviceDatabaseServer'));
    server.pathname = `/${kind}_${randomBytes(6).toString('hex')}`;
    url = server.toString();
    await ensureDatabase(url);
    orm = await MIGRATE[kind].init(url, 20);
    await MIGRATE[kind].migrate(orm);
  }, 60_000);
  afterAll(async () => {
    await orm?.close();
    if (url) await dropDatabase(url);
  }, 60_000);
  return () => orm!;
}

/**
 * The settlement service tests' common start: a settlement database of the file's own, the
 * services as the resolvers create them, a fresh entity manager per call and the super admin
 * the tests act as (no agency or partner scope).
 */
export function useSettlementServices() {
  const orm = useServiceDatabase('settlement');
  const admin: Principal = { subject: 'svc', role: 'SUPER_ADMIN', agencyId: null, partnerId: null };
  return { orm, services: createSettlementServices(), em: () => orm().em.fork(), admin };
}

/** The default agency a fresh settlement database needs before any campaign (as the seed makes). */
export async function insertDefaultAgency(em: EntityManager): Promise<void> {
  await em.insert(Agency, {
    name: 'Platform',
    code: 'platform',
    businessName: 'Platform Co.',
    businessNumber: '1208147521',
    representativeName: 'Kim',
    bankName: 'Shinhan Bank',
    accountNumber: '110-123-456789',
    accountHolder: 'Platform Co.',
    email: 'settlement@platform.example',
    isDefault: true,
    isActive: true,
  });
}
