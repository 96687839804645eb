import type { LensOperationName } from '@campaign/schema';
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

/** The lens data operations by name (`accounts.posts` → its definition). */
export type LensOperations = ReadonlyMap<string, OperationDefinition>;

/**
 * The thirteen lens data operations of spec section 4, made once at start (the paged ones hold
 * the cursor signing key). The record's type makes a missing or unknown operation a type error.
 */
export function createLensOperations(options: { cursorSecret: string }): LensOperations {
  const cursors = new CursorCodec(options.cursorSecret);
  const definitions: Record<LensOperationName, OperationDefinition> = {
    'accounts.profile': profileOperation,
    ...mediaOperations(cursors),
    ...friendshipsOperations(cursors),
    'accounts.guides': guidesOperation(cursors),
    'accounts.stories': storiesOperation,
    'accounts.highlights': highlightsOperation,
    'accounts.broadcast': broadcastOperation,
    'accounts.related': relatedOperation,
    'accounts.about': aboutOperation,
    'accounts.search': searchOperation,
  };
  return new Map(Object.entries(definitions));
}
