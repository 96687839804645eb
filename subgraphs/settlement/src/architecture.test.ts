import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  importCycles,
  isEntityWithItsRepository,
  isSqlHome,
  sourceFiles,
  sqlStrings,
} from '../../../test/support/source-rules.js';
import type { SettlementChanges } from './domain/settlement/settlement.repository.js';
import { settlementStatuses } from './kernel/settlement-types.js';

const root = fileURLToPath(new URL('.', import.meta.url));

describe('the settlement house (docs/architecture.md)', () => {
  it('has no import cycle, type imports included, but an entity with its own repository', () => {
    expect(importCycles(root).filter((cycle) => !isEntityWithItsRepository(cycle))).toEqual([]);
  });

  it('writes SQL only in repositories and migrations', () => {
    expect(sqlStrings(root, isSqlHome)).toEqual([]);
  });

  it('writes a settlement status only in its state machine and where settlements are made', () => {
    // A status literal written to `status`, or the repository's one status writer called.
    const write = new RegExp(
      `\\bstatus\\s*[:=]\\s*'(${settlementStatuses.join('|')})'|writeStatus\\(|nativeUpdate\\(Settlement\\b`,
    );
    // The repository's plain write cannot take a status (checked by tsc).
    expectTypeOf<SettlementChanges>().not.toHaveProperty('status');
    const writers = sourceFiles(root)
      .filter((file) => write.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(writers).toEqual([
      'domain/settlement/settlement.repository.ts', // writeStatus, the statement
      'domain/settlement/settlement.service.ts', // createForCampaign: SETTLEMENT_PENDING
      'flows/settlement-step.ts', // the state machine: move() and resetToPending()
    ]);
  });
});
