import { createLogger, createServiceApp, listen, type Logger } from '@campaign/platform';
import { FailureSwitch } from '../shared/failure-switch.js';
import { MessageStore } from '../shared/message-store.js';
import { simulatedStatus } from './status.js';

export interface TaxAuthoritySimulatorOptions {
  host: string;
  /** 0 picks a free port; the bound one is in the returned `url`. */
  port: number;
  /** When set, `?serviceKey=` must equal it (else 401, as the public data portal answers). */
  serviceKey?: string;
  logger?: Logger;
}

export interface RunningTaxAuthoritySimulator {
  url: string;
  close(): Promise<void>;
}

export const STATUS_PATH = '/api/nts-businessman/v1/status';
/** The real service takes at most 100 numbers per call. */
const MAX_NUMBERS = 100;

/** One status request as it arrived, for `GET /_sim/requests`. */
export interface ReceivedStatusRequest {
  /** The `b_no` list as sent (whatever it held), or null when the body had none. */
  b_no: unknown;
  receivedAt: string;
}

/**
 * The simulated national tax service business-status API: `POST /api/nts-businessman/v1/status
 * ?serviceKey=...` with `{"b_no": ["1234567891"]}`, answering in the real service's shape and
 * error codes (`BAD_JSON_REQUEST` 400, `REQUEST_DATA_MALFORMED` 411, `TOO_LARGE_REQUEST` 413,
 * `INTERNAL_ERROR` 500). `POST /_sim/fail-next` makes the next calls answer 500.
 * `GET /_sim/requests` lists the status requests received, newest first (so a test can prove
 * that a number was never sent), `DELETE /_sim/requests` forgets them.
 */
export async function startTaxAuthoritySimulator(
  options: TaxAuthoritySimulatorOptions,
): Promise<RunningTaxAuthoritySimulator> {
  const logger = options.logger ?? createLogger('tax-authority', 'silent');
  const failures = new FailureSwitch();
  const received = new MessageStore<ReceivedStatusRequest>(1000);
  const app = createServiceApp({ logger, readiness: async () => {} });
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    // A body that is not JSON (fastify's parser refused it) is the service's BAD_JSON_REQUEST.
    if (error.statusCode && error.statusCode < 500) {
      return reply.code(400).send({ status_code: 'BAD_JSON_REQUEST' });
    }
    request.log.error({ err: error }, 'tax authority simulator failed');
    return reply.code(500).send({ status_code: 'INTERNAL_ERROR' });
  });
  app.post<{ Querystring: { serviceKey?: string } }>(STATUS_PATH, async (request, reply) => {
    const { serviceKey } = options;
    const body = request.body as { b_no?: unknown } | null | undefined;
    const numbers = body && typeof body === 'object' ? body.b_no : undefined;
    received.add({ b_no: numbers ?? null, receivedAt: new Date().toISOString() });
    if (serviceKey !== undefined && request.query.serviceKey !== serviceKey) {
      return reply.code(401).send({ code: -4, msg: '등록되지 않은 인증키 입니다.' });
    }
    if (failures.take()) return reply.code(500).send({ status_code: 'INTERNAL_ERROR' });
    if (
      !Array.isArray(numbers) ||
      !numbers.length ||
      !numbers.every((n) => typeof n === 'string')
    ) {
      return reply.code(411).send({ status_code: 'REQUEST_DATA_MALFORMED' });
    }
    if (numbers.length > MAX_NUMBERS)
      return reply.code(413).send({ status_code: 'TOO_LARGE_REQUEST' });
    const data = (numbers as string[]).map(simulatedStatus);
    return {
      request_cnt: numbers.length,
      match_cnt: data.filter((entry) => entry.b_stt_cd !== '').length,
      status_code: 'OK',
      data,
    };
  });
  failures.register(app);
  app.get('/_sim/requests', async () => received.newestFirst());
  app.delete('/_sim/requests', async (_request, reply) => {
    received.clear();
    return reply.code(204).send();
  });
  const running = await listen(app, options.host, options.port);
  return { url: running.url, close: running.close };
}
