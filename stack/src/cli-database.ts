import { resolve } from 'node:path';
import type { Command } from 'commander';
import { dropDatabase, ensureDatabase, migrateAll, sessionsOn } from './databases.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { repoRoot } from './processes.js';
import { seedSettlement } from './seed.js';
import { acquireStackLock, stackLockHolder } from './stack-lock.js';
import type { CliContext } from './cli-context.js';

/**
 * `db:reset` refuses while a stack runs on the data (issue 23 item 7): the data folder's lock
 * held by a live `npm start`, or any other session on either database, named in the message.
 */
async function refuseWhileInUse(dataDir: string, urls: string[]): Promise<void> {
  const holder = stackLockHolder(dataDir);
  if (holder) {
    throw new Error(
      `db:reset refused: ${holder.command} (pid ${holder.pid}, since ${holder.since}) is running ` +
        `on the data in ${dataDir}. Stop it first (Ctrl-C in its terminal), then reset.`,
    );
  }
  const sessions = (await Promise.all(urls.map(sessionsOn))).flat();
  if (sessions.length) {
    const who = sessions
      .slice(0, 5)
      .map(
        (s) => `${s.application} (pid ${s.pid}${s.client ? `, ${s.client}` : ''}) on ${s.database}`,
      )
      .join('; ');
    throw new Error(
      `db:reset refused: ${sessions.length} connection(s) use the databases: ${who}. A stack ` +
        'seems to be running on this data; stop it first, then reset.',
    );
  }
}

/** `db:reset`: both databases dropped and made again, migrated and seeded. */
export function addDatabaseCommands(program: Command, cli: CliContext): void {
  const { env, emit, lensUrl, settlementUrl } = cli;
  program
    .command('db:reset')
    .description('drop and re-create both databases with migrations and demo data')
    .action(async () => {
      const embedded = !env.LENS_DATABASE_URL;
      let stop = async () => undefined as void;
      try {
        await ensureDatabase(lensUrl);
      } catch {
        if (!embedded) throw new Error('cannot reach the configured PostgreSQL');
        const lock = await acquireStackLock(
          resolve(repoRoot, env.DATA_DIR),
          'npm run cli -- db:reset',
        );
        const db = await startEmbeddedPostgres({
          dataDir: resolve(repoRoot, env.DATA_DIR, 'postgres'),
          port: env.EMBEDDED_PG_PORT,
          log: (line) => emit(line),
        });
        stop = async () => {
          await db.stop();
          lock.release();
        };
      }
      try {
        // Never under a running stack (issue 23 item 7): its data would change mid-request.
        await refuseWhileInUse(resolve(repoRoot, env.DATA_DIR), [lensUrl, settlementUrl]);
        for (const url of [lensUrl, settlementUrl]) {
          await dropDatabase(url);
          await ensureDatabase(url);
        }
        await migrateAll({ lens: lensUrl, settlement: settlementUrl });
        await seedSettlement(settlementUrl);
        emit('databases lens and settlement re-created with migrations and demo data');
      } finally {
        await stop();
      }
    });
}
