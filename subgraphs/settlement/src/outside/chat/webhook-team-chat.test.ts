import { createLogger, createServiceApp, listen, type RunningServer } from '@campaign/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTeamChatSimulator,
  type RunningTeamChatSimulator,
} from '../../../../../providers/src/team-chat/index.js';
import { freePort } from '../../../../../stack/src/free-port.js';
import { chatText, TeamChatError } from './team-chat.port.js';
import { WebhookTeamChat } from './webhook-team-chat.js';

/** The webhook adapter against the simulated chat, and against answers it must classify. */

let chat: RunningTeamChatSimulator;
let odd: RunningServer;

beforeAll(async () => {
  chat = await startTeamChatSimulator({ host: '127.0.0.1', port: 0 });
  // Answers a chat service gives when something is wrong: /<status>[?retryAfter=n], /hang.
  const app = createServiceApp({
    logger: createLogger('odd-chat', 'silent'),
    readiness: async () => {},
  });
  app.post<{ Params: { status: string }; Querystring: { retryAfter?: string } }>(
    '/:status',
    async (request, reply) => {
      if (request.params.status === 'hang') await new Promise((r) => setTimeout(r, 2000));
      if (request.query.retryAfter) reply.header('retry-after', request.query.retryAfter);
      return reply
        .code(Number(request.params.status) || 200)
        .type('text/plain')
        .send('nope');
    },
  );
  odd = await listen(app, '127.0.0.1', 0);
});
afterAll(async () => {
  await chat.close();
  await odd.close();
});

const failureOf = (url: string, timeoutMs = 3000) =>
  new WebhookTeamChat({ webhookUrl: url, timeoutMs }).post({ thread: 'SET1', text: 'x' }).then(
    () => null,
    (e: unknown) => e as TeamChatError,
  );

describe('WebhookTeamChat', () => {
  it('posts {thread, text} that the chat shows in the thread', async () => {
    const adapter = new WebhookTeamChat({ webhookUrl: chat.webhookUrl });
    await adapter.post({
      thread: 'SET7',
      text: chatText('SETTLEMENT_REQUESTED', 'partner 3 asks for 560,000'),
    });
    await adapter.post({
      thread: 'SET7',
      text: chatText(
        'SETTLEMENT_STATUS_CHANGED',
        'SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT',
      ),
    });
    const listed = (await (await fetch(`${chat.url}/messages?thread=SET7`)).json()) as {
      text: string;
    }[];
    expect(listed.map((m) => m.text)).toEqual([
      '[SETTLEMENT_STATUS_CHANGED] SETTLEMENT_PENDING → AWAITING_ADVERTISER_PAYMENT',
      '[SETTLEMENT_REQUESTED] partner 3 asks for 560,000',
    ]);
  });

  it('classifies the chat’s refusals', async () => {
    await fetch(`${chat.url}/_sim/fail-next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"count":1}',
    });
    expect(await failureOf(chat.webhookUrl)).toMatchObject({
      system: 'TEAM_CHAT',
      retryable: true,
      status: 503,
    });
    expect(await failureOf(`${odd.url}/429?retryAfter=7`)).toMatchObject({
      retryable: true,
      status: 429,
      retryAfterSeconds: 7,
    });
    expect(await failureOf(`${odd.url}/500`)).toMatchObject({
      retryable: true,
      status: 500,
      retryAfterSeconds: null,
    });
    const refused = await failureOf(`${odd.url}/404`);
    expect(refused).toBeInstanceOf(TeamChatError);
    expect(refused).toMatchObject({ retryable: false, status: 404 });
    expect(refused?.message).toContain('nope');
    expect(await failureOf(`${odd.url}/200`)).toBeNull();
  });

  it('reports no answer and no server as retryable', async () => {
    const hung = await failureOf(`${odd.url}/hang`, 200);
    expect(hung).toMatchObject({ retryable: true, status: null });
    expect(hung?.message).toContain('200 ms');
    const nowhere = await failureOf(`http://127.0.0.1:${await freePort()}/webhook`);
    expect(nowhere).toMatchObject({ retryable: true, status: null });
    expect(nowhere?.message).toContain('ECONNREFUSED');
  });
});
