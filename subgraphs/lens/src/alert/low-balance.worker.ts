import type { EntityManager } from '@mikro-orm/postgresql';
import {
  smtpMailerOf,
  startOutboxWorker,
  type Logger,
  type MailerConfig,
  type OutboxConfig,
  type OutboxWorker,
} from '@campaign/platform';
import { lowBalanceEmailHandler } from './low-balance-email.js';
import { lensOutbox } from './low-balance.outbox.js';

/**
 * The lens outbox's delivery in this process: the platform's worker (the same one settlement's
 * notifications use) with the low-balance e-mail through the platform's SMTP mailer.
 */
export async function startLensOutbox(options: {
  connectionString: string;
  config: OutboxConfig & MailerConfig;
  logger: Logger;
  em: () => EntityManager;
}): Promise<OutboxWorker> {
  const mailer = smtpMailerOf(options.config);
  const worker = await startOutboxWorker({
    connectionString: options.connectionString,
    config: options.config,
    repository: lensOutbox,
    handlers: { EMAIL: lowBalanceEmailHandler(mailer) },
    logger: options.logger,
    execute: (sql, params) => options.em().execute(sql, params),
  });
  return {
    health: () => worker.health(),
    stop: async () => {
      await worker.stop();
      await mailer.close();
    },
  };
}
