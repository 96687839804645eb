import type { EntityManager } from '@mikro-orm/postgresql';
import {
  startOutboxWorker,
  type Logger,
  type OutboxConfig,
  type OutboxWorker,
} from '@campaign/platform';
import { deliveryHandlers, type ChannelHandlers } from './channel-handler.js';
import { settlementOutbox } from './outbox.js';

/**
 * The settlement outbox's delivery in this process: the platform's worker (short claim, the call
 * with no connection held, short record) with settlement's channel handlers.
 */
export function startSettlementOutbox(options: {
  connectionString: string;
  config: OutboxConfig;
  handlers: ChannelHandlers;
  logger: Logger;
  em: () => EntityManager;
}): Promise<OutboxWorker> {
  return startOutboxWorker({
    connectionString: options.connectionString,
    config: options.config,
    repository: settlementOutbox,
    handlers: deliveryHandlers(options.handlers),
    logger: options.logger,
    execute: (sql, params) => options.em().execute(sql, params),
  });
}
