import { callOutside, retryAfterSeconds } from '../http-client.js';
import { TeamChatError, type TeamChat, type TeamChatMessage } from './team-chat.port.js';

export interface WebhookTeamChatOptions {
  /** The incoming-webhook URL (it usually carries its secret in the path). */
  webhookUrl: string;
  /** Whole exchange (default 5 s). */
  timeoutMs?: number;
}

/**
 * TeamChat over a Slack-like incoming webhook: `POST <url>` with `{"thread", "text"}`, any 2xx is
 * taken. No answer, 5xx, 408 and 429 are retryable (honouring Retry-After); another 4xx means the
 * message or the URL is wrong, and sending it again would not help.
 */
export class WebhookTeamChat implements TeamChat {
  constructor(private readonly options: WebhookTeamChatOptions) {}

  async post(message: TeamChatMessage): Promise<void> {
    const answer = await callOutside(
      this.options.webhookUrl,
      { body: { thread: message.thread, text: message.text }, timeoutMs: this.options.timeoutMs },
      (error) => new TeamChatError(`team chat ${error.message}`, true, null),
    );
    const { status } = answer;
    if (status >= 200 && status < 300) return;
    const retryable = status >= 500 || status === 408 || status === 429;
    const said = answer.text.slice(0, 200).trim();
    throw new TeamChatError(
      `team chat answered HTTP ${status}${said ? `: ${said}` : ''}`,
      retryable,
      status,
      retryable ? retryAfterSeconds(answer.headers) : null,
    );
  }
}
