import type pg from 'pg';

/** The reference's settlement reads: the rows the project's answers are made of, one statement each. */
export const SETTLEMENT_DETAIL: pg.QueryConfig = {
  name: 'settlement_detail',
  text: `select s.*, to_jsonb(i) as advertiser_invoice, to_jsonb(p) as partner_payout,
                to_jsonb(r) as reverse_issuance
         from settlement s
         left join advertiser_invoice i on i.id = s.advertiser_invoice_id
         left join partner_payout p on p.id = s.partner_payout_id
         left join reverse_issuance r on r.settlement_id = s.id
         where s.id = $1`,
};

/** A page newest first with each settlement's partner; $1 the page size. */
export const SETTLEMENT_PAGE: pg.QueryConfig = {
  name: 'settlement_page',
  text: `select s.*, to_jsonb(pa) as partner
         from settlement s join partner pa on pa.id = s.partner_id
         order by s.id_number desc limit $1`,
};

/** The lens side of `partner.account`: the partners' observed accounts, one statement. */
export const ACCOUNTS: pg.QueryConfig = {
  name: 'accounts',
  text: `select account_id, handle, summary, observed_at from account_observation
         where account_id = any($1)`,
};

/** One settlement with its partner (the settlement side of the federated query). */
export const SETTLEMENT_WITH_PARTNER: pg.QueryConfig = {
  name: 'settlement_with_partner',
  text: `select s.id, s.payout_amount, to_jsonb(pa) as partner
         from settlement s join partner pa on pa.id = s.partner_id where s.id = $1`,
};
