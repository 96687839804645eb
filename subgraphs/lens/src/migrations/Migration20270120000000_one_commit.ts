import { Migration } from '@mikro-orm/migrations';
import { startOperationSql } from './Migration20270110000000_replay_probe.js';

/**
 * Issue 27 (billed call): one durable commit per inline billed call instead of two. A start that
 * leases its attempt to the process that answers the request (`p_owner` set: the subgraph runs
 * it inline) commits with `synchronous_commit = off` for its own transaction: no WAL flush. The
 * request answers only after the settlement's synchronous commit, whose flush takes the start's
 * earlier commit record with it, or, when it answers RUNNING (202, a replay or a status read
 * while the attempt runs), after an explicit WAL flush (`FLUSH_WAL`). A start without an inline
 * owner (a process that leaves the attempt to the reconciler) keeps its synchronous commit.
 * docs/decisions.md, "Issue 27 (billed call)".
 */
export class Migration20270120000000_one_commit extends Migration {
  override async up(): Promise<void> {
    this.addSql(startOperationSql({ probeFirst: true, deferInlineCommit: true }));
  }

  override async down(): Promise<void> {
    this.addSql(startOperationSql({ probeFirst: true, deferInlineCommit: false }));
  }
}
