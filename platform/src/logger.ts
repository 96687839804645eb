import { createRequire } from 'node:module';
import { pino, type Logger } from 'pino';
import type * as PinoPrettyModule from 'pino-pretty';
import { logFormat } from './config.js';
import { tracingEnabled } from './telemetry.js';
import { logTraceFields } from './trace-context.js';

export type { Logger };

/**
 * pino-pretty is loaded only for a terminal's lines (issue 27): services under the stack, the
 * bench and production write JSON and never need it (require caches it after the first call).
 */
const pinoPretty = () =>
  (createRequire(import.meta.url)('pino-pretty') as typeof PinoPrettyModule).PinoPretty;

/** One structured logger per service; the request id travels in every child logger. */
export function createLogger(service: string, level: string): Logger {
  const options = {
    name: service,
    level,
    base: { service },
    // Every line written while a traced request runs names its trace and span (issue 26); with
    // tracing off there is no mixin at all, so a line costs what it did.
    ...(tracingEnabled() ? { mixin: logTraceFields } : {}),
  };
  if (level === 'silent' || logFormat() === 'json') return pino(options);
  return pino(
    options,
    pinoPretty()({
      // "12:00:01.234 INFO  gateway: gateway listening url=…": the service first, then the event.
      translateTime: 'SYS:HH:MM:ss.l',
      // `http` repeats what a request line's message says (see logRequest in http.ts).
      ignore: 'pid,hostname,service,name,http',
      messageFormat: '{service}: {msg}',
      singleLine: true,
      // Written before the next line of code runs, so a crash never loses its last lines.
      sync: true,
    }),
  );
}
