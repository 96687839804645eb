import type { OperationDefinition } from '../operation/operation-definition.js';
import {
  aboutOperation,
  broadcastOperation,
  highlightsOperation,
  relatedOperation,
} from './account-detail.operation.js';
import { CursorCodec } from './cursor.js';
import { friendshipsOperations } from './friendships.operation.js';
import { guidesOperation } from './guides.operation.js';
import { mediaOperations } from './media.operation.js';
import { profileOperation } from './profile.operation.js';
import { searchOperation } from './search.operation.js';
import { storiesOperation } from './stories.operation.js';

/**
 * The thirteen lens data operations of spec section 4, made once at start (the paged ones hold
 * the cursor signing key).
 */
export function createLensOperations(options: { cursorSecret: string }) {
  const cursors = new CursorCodec(options.cursorSecret);
  return {
    profile: profileOperation,
    ...mediaOperations(cursors),
    ...friendshipsOperations(cursors),
    guides: guidesOperation(cursors),
    stories: storiesOperation,
    highlights: highlightsOperation,
    broadcast: broadcastOperation,
    related: relatedOperation,
    about: aboutOperation,
    search: searchOperation,
  };
}

export type LensOperations = ReturnType<typeof createLensOperations>;

/** The definitions by operation name (`accounts.posts` → its definition), e.g. for job workers. */
export function operationsByName(
  operations: LensOperations,
): ReadonlyMap<string, OperationDefinition<never>> {
  return new Map(
    Object.values(operations).map((d) => [d.name, d as unknown as OperationDefinition<never>]),
  );
}
