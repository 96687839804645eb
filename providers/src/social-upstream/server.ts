import { createLogger, createServiceApp, listen, type Logger } from '@campaign/platform';
import { answerNow, answers, SimError, type SimulatorSettings } from './gate.js';
import { accountRoutes } from './routes-accounts.js';
import { mediaRoutes } from './routes-media.js';

export interface SocialUpstreamSimulatorOptions {
  host: string;
  /** 0 picks a free port; the bound one is in the returned `url`. */
  port: number;
  logger?: Logger;
  /** When set, every request except the probes needs `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** How long `slow_` accounts take to answer, in milliseconds (default 3500). */
  slowDelayMs?: number;
  /** "Now" on the simulated platform, unix seconds (default 2026-11-01T00:00:00Z). */
  epochSeconds?: number;
}

export interface RunningSocialUpstreamSimulator {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_SLOW_DELAY_MS = 3500;
export const DEFAULT_EPOCH_SECONDS = 1_793_491_200;

const PROBES = new Set(['/healthz', '/readyz']);

/**
 * Starts the simulated social platform on loopback: the platform's public web JSON protocol, its
 * data a deterministic function of each handle or id, with scenario handles (see `ids.ts`).
 */
export async function startSocialUpstreamSimulator(
  options: SocialUpstreamSimulatorOptions,
): Promise<RunningSocialUpstreamSimulator> {
  const settings: SimulatorSettings = {
    epoch: options.epochSeconds ?? DEFAULT_EPOCH_SECONDS,
    slowDelayMs: options.slowDelayMs ?? DEFAULT_SLOW_DELAY_MS,
    waiting: new Set(),
  };
  const app = createServiceApp({
    logger: options.logger ?? createLogger('social-upstream', 'silent'),
    readiness: async () => {},
  });
  const { token } = options;
  if (token) {
    app.addHook('onRequest', async (request, reply) => {
      if (PROBES.has(request.url)) return;
      if (request.headers.authorization !== `Bearer ${token}`) {
        const { statusCode, body } = answers.loginRequired();
        return reply.code(statusCode).send(body);
      }
    });
  }
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof SimError) return reply.code(error.statusCode).send(error.body);
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode && statusCode < 500) {
      return reply.code(statusCode).send({ message: (error as Error).message, status: 'fail' });
    }
    request.log.error({ err: error }, 'social upstream simulator failed');
    return reply.code(500).send({ message: 'Internal error', status: 'fail' });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ message: 'Page not found', status: 'fail' }),
  );
  // Test control, like the tax-invoice provider's decide-now: the waiting slow_ answers go now.
  app.post('/_sim/answer-now', async () => ({ answered: answerNow(settings) }));
  accountRoutes(app, settings);
  mediaRoutes(app, settings);
  const running = await listen(app, options.host, options.port);
  return { url: running.url, close: running.close };
}
