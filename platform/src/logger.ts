import { pino, type Logger } from 'pino';

export type { Logger };

/** One structured logger per service; the request id travels in every child logger. */
export function createLogger(service: string, level: string): Logger {
  return pino({ name: service, level, base: { service } });
}
