import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLogger, createServiceApp, listen, type Logger } from '@campaign/platform';
import { FailureSwitch } from '../shared/failure-switch.js';
import { MessageStore } from '../shared/message-store.js';

export interface TeamChatSimulatorOptions {
  host: string;
  /** 0 picks a free port; the bound one is in the returned `url`. */
  port: number;
  logger?: Logger;
  /** How many messages are kept (oldest dropped first); default 5000. */
  limit?: number;
}

/** One message as `GET /messages` shows it (DESIGN.md section 5, fixed). */
export interface ChatMessage {
  thread: string;
  text: string;
  receivedAt: string;
}

export interface RunningTeamChatSimulator {
  /** Base URL: `GET|DELETE /messages`. */
  url: string;
  /** The incoming-webhook URL a sender posts to. */
  webhookUrl: string;
  messages(): ChatMessage[];
  close(): Promise<void>;
}

const MAX_TEXT = 40_000;

/**
 * The simulated team chat: a Slack-like incoming webhook. `POST /webhook` (or `/webhook/<token>`,
 * as real webhook URLs carry a secret path) with `{"thread": "SET1", "text": "[EVENT] ..."}`
 * answers `200 ok`; a body that is not that answers `400 invalid_payload` (or `no_text`), in
 * plain text as Slack does, and is not stored.
 */
export async function startTeamChatSimulator(
  options: TeamChatSimulatorOptions,
): Promise<RunningTeamChatSimulator> {
  const logger = options.logger ?? createLogger('team-chat', 'silent');
  const store = new MessageStore<ChatMessage>(options.limit ?? 5000);
  const failures = new FailureSwitch();
  const app = createServiceApp({ logger, readiness: async () => {} });

  const receive = async (request: FastifyRequest, reply: FastifyReply) => {
    if (failures.take()) return reply.code(503).type('text/plain').send('service_unavailable');
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) {
      return reply.code(400).type('text/plain').send('invalid_payload');
    }
    const { thread, text } = body as Record<string, unknown>;
    if (typeof thread !== 'string' || !thread.trim() || thread.length > 200) {
      return reply.code(400).type('text/plain').send('invalid_payload');
    }
    if (typeof text !== 'string' || !text.trim()) {
      return reply.code(400).type('text/plain').send('no_text');
    }
    if (text.length > MAX_TEXT) return reply.code(400).type('text/plain').send('msg_too_long');
    store.add({ thread, text, receivedAt: new Date().toISOString() });
    logger.info({ thread }, 'chat message received');
    return reply.code(200).type('text/plain').send('ok');
  };
  app.post('/webhook', receive);
  app.post('/webhook/*', receive);
  app.get<{ Querystring: { thread?: string } }>('/messages', async (request) => {
    const thread = typeof request.query.thread === 'string' ? request.query.thread : '';
    return store.newestFirst((m) => !thread || m.thread === thread);
  });
  app.delete('/messages', async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });
  // The next N posts answer 503, as a chat service in trouble does.
  failures.register(app);

  const running = await listen(app, options.host, options.port);
  return {
    url: running.url,
    webhookUrl: `${running.url}/webhook`,
    messages: () => store.newestFirst(),
    close: running.close,
  };
}
