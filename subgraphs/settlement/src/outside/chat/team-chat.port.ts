import { OutsideSystemError } from '../errors.js';

/**
 * The port to the team chat. The outbox worker posts each TEAM_CHAT row through it; the adapter
 * (`webhook-team-chat.ts`) posts to an incoming webhook, the simulated chat server included.
 */
export interface TeamChat {
  /** Posts one message; throws {@link TeamChatError} when the chat did not take it. */
  post(message: TeamChatMessage): Promise<void>;
}

export interface TeamChatMessage {
  /** The conversation: the settlement id (DESIGN.md, "Team-chat threads are the settlement id"). */
  thread: string;
  /** Starts with `[EVENT]`, e.g. `[SETTLEMENT_STATUS_CHANGED] A → B`; see {@link chatText}. */
  text: string;
}

export class TeamChatError extends OutsideSystemError {
  readonly system = 'TEAM_CHAT' as const;

  constructor(
    message: string,
    retryable: boolean,
    /** The HTTP status when the chat answered. */
    readonly status: number | null,
    retryAfterSeconds: number | null = null,
  ) {
    super(message, retryable, retryAfterSeconds);
  }
}

/** The text of a chat message: `[EVENT]`, then the details (DESIGN.md section 5). */
export function chatText(event: string, detail?: string): string {
  return detail ? `[${event}] ${detail}` : `[${event}]`;
}
