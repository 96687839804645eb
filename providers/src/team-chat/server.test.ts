import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTeamChatSimulator, type RunningTeamChatSimulator } from './index.js';

let chat: RunningTeamChatSimulator;

beforeAll(async () => {
  chat = await startTeamChatSimulator({ host: '127.0.0.1', port: 0 });
});
afterAll(() => chat.close());
beforeEach(async () => {
  expect((await fetch(`${chat.url}/messages`, { method: 'DELETE' })).status).toBe(204);
});

const post = (body: unknown, path = '/webhook') =>
  fetch(`${chat.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function list(query = '') {
  const response = await fetch(`${chat.url}/messages${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { thread: string; text: string; receivedAt: string }[];
}

describe('team chat simulator', () => {
  it('stores posts and lists them newest first, per thread', async () => {
    expect(chat.webhookUrl).toBe(`${chat.url}/webhook`);
    const first = await post({ thread: 'SET1', text: '[SETTLEMENT_REQUESTED] partner 1' });
    expect(first.status).toBe(200);
    expect(await first.text()).toBe('ok');
    await post({ thread: 'SET2', text: '[SETTLEMENT_REQUESTED] partner 2' }, '/webhook/T0/B0/x');
    await post({ thread: 'SET1', text: '[SETTLEMENT_STATUS_CHANGED] A → B' });
    const all = await list();
    expect(all.map((m) => m.text)).toEqual([
      '[SETTLEMENT_STATUS_CHANGED] A → B',
      '[SETTLEMENT_REQUESTED] partner 2',
      '[SETTLEMENT_REQUESTED] partner 1',
    ]);
    expect(Object.keys(all[0]!).sort()).toEqual(['receivedAt', 'text', 'thread']);
    expect(all[0]!.receivedAt).toMatch(/Z$/);
    expect((await list('?thread=SET1')).map((m) => m.text)).toEqual([
      '[SETTLEMENT_STATUS_CHANGED] A → B',
      '[SETTLEMENT_REQUESTED] partner 1',
    ]);
    expect(chat.messages()).toHaveLength(3);
  });

  it('refuses bodies that are not {thread, text}', async () => {
    for (const [body, answer] of [
      [[], 'invalid_payload'],
      [{ text: 'x' }, 'invalid_payload'],
      [{ thread: 1, text: 'x' }, 'invalid_payload'],
      [{ thread: 'SET1' }, 'no_text'],
      [{ thread: 'SET1', text: '  ' }, 'no_text'],
    ] as const) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.text()).toBe(answer);
    }
    expect(await list()).toEqual([]);
  });

  it('fails the next posts on request', async () => {
    const armed = await post({ count: 2 }, '/_sim/fail-next');
    expect(await armed.json()).toEqual({ failNext: 2 });
    expect((await post({ thread: 'SET1', text: 'a' })).status).toBe(503);
    expect((await post({ thread: 'SET1', text: 'b' })).status).toBe(503);
    expect((await post({ thread: 'SET1', text: 'c' })).status).toBe(200);
    expect((await list()).map((m) => m.text)).toEqual(['c']);
  });
});
