import { afterAll, inject } from 'vitest';
import { holdFileLock } from './one-file-at-a-time.js';

/** The lock this worker holds, if any (setup files run again for each file of a worker). */
const HELD = Symbol.for('campaign-platform.test.file-lock');
const held = globalThis as { [HELD]?: () => void };

// Setup file of a project whose files take turns (`one-file-at-a-time.ts`): the file starts once
// it holds the project's lock and lets go after its last hook. A file whose collection failed
// never reaches its hooks: the next file of the same worker lets that hold go first.
held[HELD]?.();
const release = await holdFileLock(inject('fileLock'));
held[HELD] = release;
afterAll(() => {
  release();
  if (held[HELD] === release) delete held[HELD];
});
