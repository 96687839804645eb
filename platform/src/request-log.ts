import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from './logger.js';

/** Probes poll every few seconds: a line each would bury every other event. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** The URL before its query (checked on every request: no array, no copy without a query). */
function pathOf({ url }: FastifyRequest): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/**
 * Fastify's request lines for people (issue 15): one line per request, when it completes, instead
 * of two at info ("incoming request", "request completed"). A successful request is a debug line
 * (LOG_LEVEL=debug shows it); a refused or failed one is worth reading by default: 4xx at info,
 * 5xx at warn (the failure itself is logged as an error where it happened). Probes are never
 * logged.
 */
export class RequestLogController extends LogController {
  override isLogDisabled(request: FastifyRequest): boolean {
    return PROBE_PATHS.has(pathOf(request));
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const status = reply.statusCode;
    const level = error || status >= 500 ? 'warn' : status >= 400 ? 'info' : 'debug';
    // Nothing is built for a line its level leaves out (a success at info: every request of a
    // production service). The request's logger is the service's pino child (http.ts).
    if (!(reply.log as Logger).isLevelEnabled(level)) return;
    const ms = Math.round(reply.elapsedTime);
    const http = {
      method: request.method,
      url: request.url,
      statusCode: status,
      responseTimeMs: ms,
    };
    reply.log[level](
      error ? { http, err: error } : { http },
      `${request.method} ${pathOf(request)} ${status} (${ms} ms)`,
    );
  }

  /** A 4xx from fastify's default error handler already has its request line above. */
  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) super.defaultErrorLog(error, request, reply);
  }
}
