import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '@campaign/stack';
import { freePort } from '@campaign/stack';

/** One PostgreSQL server for the service tier; each test file makes a database of its own. */
export default async function setup(project: TestProject) {
  const folder = await mkdtemp(join(tmpdir(), 'campaign-service-tier-'));
  await chmod(folder, 0o755); // the database runs as nobody when we are root
  const database = await startEmbeddedPostgres({
    dataDir: join(folder, 'postgres'),
    port: await freePort(),
    log: () => undefined,
    durable: false,
  });
  project.provide('serviceDatabaseServer', database.urlFor('postgres'));
  return async () => {
    await database.stop();
    await rm(folder, { recursive: true, force: true });
  };
}
