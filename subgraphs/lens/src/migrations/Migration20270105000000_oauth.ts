import { Migration } from '@mikro-orm/migrations';

/**
 * MCP authorization (issue 25). An OAuth connection is a credential of kind `oauth` that may be
 * limited to some operations (null: every operation the tenant may call) and to a total of
 * credits (null: no cap). The OAuth authorization server (oidc-provider, in the REST adapter)
 * keeps its clients, codes, tokens and grants in `oauth_payload`, so that every adapter replica
 * sees the same ones; rows past `expires_at` are ignored on read and may be deleted by anyone.
 */
export class Migration20270105000000_oauth extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table api_key add column operations text[],
        add column credits_cap bigint check (credits_cap > 0);`);
    // What a capped credential has spent is summed from its operations (as the usage view is).
    this.addSql(`create index operation_credential_idx on operation (credential_id);`);
    this.addSql(`
      create table oauth_payload (
        model text not null,
        id text not null,
        payload jsonb not null,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        consumed_at timestamptz,
        primary key (model, id)
      );
      create index oauth_payload_grant_idx on oauth_payload (grant_id) where grant_id is not null;
      create index oauth_payload_uid_idx on oauth_payload (uid) where uid is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table oauth_payload;`);
    this.addSql(`drop index operation_credential_idx;`);
    this.addSql(`alter table api_key drop column operations, drop column credits_cap;`);
  }
}
