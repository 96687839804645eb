import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.js';
import { Migration20261201000000_engine } from './Migration20261201000000_engine.js';
import { Migration20261223000000_billed_path } from './Migration20261223000000_billed_path.js';
import { Migration20261228000000_operation_trace_context } from './Migration20261228000000_operation_trace_context.js';
import { Migration20261231000000_accounts } from './Migration20261231000000_accounts.js';
import { Migration20261231100000_low_balance_alert } from './Migration20261231100000_low_balance_alert.js';
import { Migration20270105000000_oauth } from './Migration20270105000000_oauth.js';
import { Migration20270110000000_replay_probe } from './Migration20270110000000_replay_probe.js';
import { Migration20270120000000_one_commit } from './Migration20270120000000_one_commit.js';
import { Migration20270126000000_tenant_rate_window } from './Migration20270126000000_tenant_rate_window.js';
import { Migration20270127000000_operation_open } from './Migration20270127000000_operation_open.js';

/** Listed explicitly: the migrator's own file discovery uses a native import() of .ts files. */
export const lensMigrations: MigrationObject[] = [
  { name: 'Migration20261122000000_initial', class: Migration20261122000000_initial },
  { name: 'Migration20261201000000_engine', class: Migration20261201000000_engine },
  { name: 'Migration20261223000000_billed_path', class: Migration20261223000000_billed_path },
  {
    name: 'Migration20261228000000_operation_trace_context',
    class: Migration20261228000000_operation_trace_context,
  },
  { name: 'Migration20261231000000_accounts', class: Migration20261231000000_accounts },
  {
    name: 'Migration20261231100000_low_balance_alert',
    class: Migration20261231100000_low_balance_alert,
  },
  { name: 'Migration20270105000000_oauth', class: Migration20270105000000_oauth },
  { name: 'Migration20270110000000_replay_probe', class: Migration20270110000000_replay_probe },
  { name: 'Migration20270120000000_one_commit', class: Migration20270120000000_one_commit },
  {
    name: 'Migration20270126000000_tenant_rate_window',
    class: Migration20270126000000_tenant_rate_window,
  },
  { name: 'Migration20270127000000_operation_open', class: Migration20270127000000_operation_open },
];
