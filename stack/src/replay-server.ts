import { createLogger, createServiceApp, listen, type RunningServer } from '@campaign/platform';

/** An answer with a status (and headers) of its own; an answer given as a plain value is a 200. */
export class Replayed {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** What a replay server's `answer` is told of one request. */
export interface ReplayCall {
  mode: string;
  /** The path after the mode: the real service's path. */
  path: string;
  method: string;
  url: URL;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface ReplayOptions {
  /** Modes answered with a status and a recorded error body (text/html when a string). */
  failures: Record<string, Replayed>;
  /** The page the `notjson` mode answers (a login page, a proxy's error). */
  notJson: string;
  /** Every request, before it is answered (what the adapter sent). */
  record?: (call: ReplayCall) => void;
  /** Any other mode. */
  answer: (call: ReplayCall) => unknown;
}

/**
 * A local server that replays recorded-shape answers of an outside service, for its adapter's
 * tests. The first path segment picks the behaviour (`/ok`, `/e404`, `/hang`, ...), so each
 * adapter's base URL chooses one; the rest is the real service's path. `hang` never answers
 * until the server closes; `notjson` answers an HTML page.
 */
export async function startReplayServer(options: ReplayOptions): Promise<RunningServer> {
  const app = createServiceApp({
    logger: createLogger('replay', 'silent'),
    readiness: async () => {},
  });
  const hanging = new Set<() => void>();
  app.route({
    method: ['GET', 'POST'],
    url: '/:mode/*',
    handler: async (request, reply) => {
      const params = request.params as { mode: string; '*': string };
      const call: ReplayCall = {
        mode: params.mode,
        path: `/${params['*']}`,
        method: request.method,
        url: new URL(request.url, 'http://replay'),
        headers: request.headers,
        body: request.body,
      };
      options.record?.(call);
      if (call.mode === 'hang') await new Promise<void>((resolve) => hanging.add(resolve));
      if (call.mode === 'notjson') return reply.type('text/html').send(options.notJson);
      const answer = options.failures[call.mode] ?? (await options.answer(call));
      if (!(answer instanceof Replayed)) return answer;
      reply.code(answer.status).headers(answer.headers);
      if (typeof answer.body === 'string') reply.type('text/html');
      return reply.send(answer.body);
    },
  });
  const running = await listen(app, '127.0.0.1', 0);
  return {
    ...running,
    close: async () => {
      for (const release of hanging) release();
      await running.close();
    },
  };
}
