import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000_initial } from './Migration20261122000000_initial.js';
import { Migration20261123000000_settlement_core } from './Migration20261123000000_settlement_core.js';
import { Migration20261215000000_settlement_id_number } from './Migration20261215000000_settlement_id_number.js';
import { Migration20261220000000_rate_limit_window } from './Migration20261220000000_rate_limit_window.js';
import { Migration20261222000000_agencies_quotations } from './Migration20261222000000_agencies_quotations.js';
import { Migration20261224000000_tax_invoice_provider } from './Migration20261224000000_tax_invoice_provider.js';
import { Migration20261226000000_outbox_delivery } from './Migration20261226000000_outbox_delivery.js';
import { Migration20261228000000_outbox_trace_context } from './Migration20261228000000_outbox_trace_context.js';
import { Migration20261230000000_outbox_lease } from './Migration20261230000000_outbox_lease.js';
import { Migration20261231000000_idempotency_key } from './Migration20261231000000_idempotency_key.js';
import { Migration20270101000000_invoice_cancellation } from './Migration20270101000000_invoice_cancellation.js';

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
  {
    name: 'Migration20261220000000_rate_limit_window',
    class: Migration20261220000000_rate_limit_window,
  },
  {
    name: 'Migration20261222000000_agencies_quotations',
    class: Migration20261222000000_agencies_quotations,
  },
  {
    name: 'Migration20261224000000_tax_invoice_provider',
    class: Migration20261224000000_tax_invoice_provider,
  },
  {
    name: 'Migration20261226000000_outbox_delivery',
    class: Migration20261226000000_outbox_delivery,
  },
  {
    name: 'Migration20261228000000_outbox_trace_context',
    class: Migration20261228000000_outbox_trace_context,
  },
  { name: 'Migration20261230000000_outbox_lease', class: Migration20261230000000_outbox_lease },
  {
    name: 'Migration20261231000000_idempotency_key',
    class: Migration20261231000000_idempotency_key,
  },
  {
    name: 'Migration20270101000000_invoice_cancellation',
    class: Migration20270101000000_invoice_cancellation,
  },
];
