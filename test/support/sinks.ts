/**
 * Reading what the settlement subgraph sent to the simulated mail sink and team chat
 * (DESIGN.md section 5). The shared stack serves many test files at once: always filter by an
 * address or a settlement id of your own.
 */

import { eventually } from './wait.js';

export { eventually };

export interface SinkMail {
  messageId: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  receivedAt: string;
}

export interface ChatPost {
  thread: string;
  text: string;
  receivedAt: string;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

/** Every message the sink received for `address`, oldest first. */
export async function mailsTo(sink: string, address: string): Promise<SinkMail[]> {
  const mails = await getJson<SinkMail[]>(`${sink}/messages?to=${encodeURIComponent(address)}`);
  return mails.reverse();
}

/** Every chat message of `thread`, oldest first. */
export async function chatThread(chat: string, thread: string): Promise<ChatPost[]> {
  const posts = await getJson<ChatPost[]>(`${chat}/messages?thread=${encodeURIComponent(thread)}`);
  return posts.reverse();
}

/** The e-mails for `address` once one per event in `events` has arrived (oldest first). */
export function mailsFor(
  sink: string,
  address: string,
  events: readonly string[],
): Promise<SinkMail[]> {
  return eventually(
    () => mailsTo(sink, address),
    (mails) => events.every((event) => mails.some((mail) => mail.headers['x-event'] === event)),
    `e-mails ${events.join(', ')} to ${address}`,
  );
}

/** The mail of `event` among `mails`; fails when there is not exactly one. */
export function only(mails: readonly SinkMail[], event: string): SinkMail {
  const found = mails.filter((mail) => mail.headers['x-event'] === event);
  if (found.length !== 1) {
    throw new Error(`${found.length} e-mails ${event} (expected exactly one)`);
  }
  return found[0]!;
}
