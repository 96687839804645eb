import type { EntityManager } from '@mikro-orm/postgresql';

/** An invoice the sweep moved to OVERDUE, with a settlement that holds it (one row each). */
export interface OverdueRow {
  invoiceId: string;
  invoiceNumber: string;
  totalAmount: string;
  dueDate: Date;
  bankName: string | null;
  accountNumber: string | null;
  accountHolder: string | null;
  advertiserName: string;
  advertiserEmail: string;
  settlementId: string;
  campaignId: string;
  campaignTitle: string;
  settlementType: string;
}

/**
 * Moves every ISSUED invoice past its due date to OVERDUE, in the caller's transaction, and
 * returns each with the settlements holding it (issue 23 item 4). The update is the claim: an
 * invoice is moved once, whichever replica's sweep gets its row lock first; a concurrent sweep
 * finds it OVERDUE and skips it.
 */
export async function markOverdueInvoices(tx: EntityManager, limit: number): Promise<OverdueRow[]> {
  return tx.execute<OverdueRow[]>(
    `with moved as (
       update advertiser_invoice set status = 'OVERDUE', updated_at = now()
       where id in (select id from advertiser_invoice
                    where status = 'ISSUED' and due_date < now()
                    order by due_date limit ? for update skip locked)
       returning id, invoice_number, total_amount::text as total_amount, due_date, bank_name,
                 account_number, account_holder, advertiser_id)
     select m.id::text as "invoiceId", m.invoice_number as "invoiceNumber",
            m.total_amount as "totalAmount", m.due_date as "dueDate", m.bank_name as "bankName",
            m.account_number as "accountNumber", m.account_holder as "accountHolder",
            a.name as "advertiserName", a.email as "advertiserEmail",
            s.id as "settlementId", c.id as "campaignId", c.title as "campaignTitle",
            s.settlement_type as "settlementType"
     from moved m
     join advertiser a on a.id = m.advertiser_id
     join settlement s on s.advertiser_invoice_id = m.id
     join campaign c on c.id = s.campaign_id
     order by m.id, s.id_number`,
    [limit],
  );
}
