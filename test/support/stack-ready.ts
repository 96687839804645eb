import { inject } from 'vitest';
import type { StackUrls } from '@campaign/stack';
import { awaitBoot } from './background-boot.js';
import { useSharedStack } from './clients.js';

// Setup file of the stack tier: its files start once the shared stack (booted in the background
// by global-stack.ts) is up, and fail with the boot's error if it could not start.
useSharedStack(await awaitBoot<StackUrls>(inject('stackBoot')));
