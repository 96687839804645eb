import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.js';
import { Migration20261123000000_settlement_core } from './Migration20261123000000_settlement_core.js';
import { Migration20261215000000_settlement_id_number } from './Migration20261215000000_settlement_id_number.js';

/** Listed explicitly: the migrator's own file discovery uses a native import() of .ts files. */
export const settlementMigrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  {
    name: 'Migration20261123000000_settlement_core',
    class: Migration20261123000000_settlement_core,
  },
  {
    name: 'Migration20261215000000_settlement_id_number',
    class: Migration20261215000000_settlement_id_number,
  },
];
