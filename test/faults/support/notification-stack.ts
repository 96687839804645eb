import type { TestProject } from 'vitest/node';
import { provideBoot, startTestStack } from '../../support/test-stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the notification-faults stack's URLs are answered once it is up (`awaitBoot`). */
    notificationStackBoot: string;
  }
}

/** At most 4 attempts per message, retried after 0.2 s, 0.4 s, 0.8 s. */
export const MAX_ATTEMPTS = 4;

/**
 * The stack of its own of `test/faults/notification-faults.test.ts` (only that file's messages
 * meet the mail failures it arms). Provided by the faults tier's global setup and booted when
 * the file first asks for it (`whenAsked`): booted at start beside the shared stacks, it held
 * the first tiers back longer than it saved the faults tier.
 */
export default function setup(project: TestProject) {
  return provideBoot(
    project,
    'notificationStackBoot',
    async () => {
      const stack = await startTestStack({
        serviceEnv: { OUTBOX_MAX_ATTEMPTS: String(MAX_ATTEMPTS), OUTBOX_RETRY_MAX_MS: '1000' },
      });
      return { value: stack.urls, stop: () => stack.stop() };
    },
    { whenAsked: true },
  );
}
