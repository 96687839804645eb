import { inject } from 'vitest';
import { awaitBoot } from '../../support/background-boot.js';
import { useFaultStack, type FaultStack } from './fault-stack.js';

// Setup file of the faults tier: its files start once the faults stack (booted in the background
// by global-faults.ts) is up, and fail with the boot's error if it could not start.
useFaultStack(await awaitBoot<FaultStack>(inject('faultsBoot')));
