import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { graphqlOk, stack } from '../support/clients.js';
import { eventually, mailsTo, type SinkMail } from '../support/sinks.js';
import { newAccount, type Account } from './account-support.js';
import { profile, settled, useLensDatabase } from './engine-support.js';

const sink = () => stack().mailSink!;

describe('the low-balance alert: one e-mail per fall below the threshold (issue 24, item 4)', () => {
  const sql = useLensDatabase();
  const address = `low-${randomUUID()}@lens.example`;
  let account: Account;
  let admin: string;

  beforeAll(async () => {
    [account, admin] = await Promise.all([
      newAccount(
        '--credits',
        '40',
        '--rate-limit',
        '100000',
        '--email',
        address,
        '--alert-below',
        '20',
      ),
      cli('auth:token', '--role', 'SUPER_ADMIN'),
    ]);
  });

  /** `n` concurrent billed calls (1 credit each), every one settled. */
  const calls = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const answer = await profile(account.restKey, { accountRef: { handle: `low.${i}` } });
        return settled(account.restKey, answer);
      }),
    );

  /** The alert's outbox rows of this tenant, once none is waiting to be sent. */
  const sentRows = (count: number) =>
    eventually(
      () =>
        sql().query<{ status: string; dedupe_key: string }>(
          `select status, dedupe_key from outbox where tenant_id = $1 order by id`,
          [account.tenantId],
        ),
      (rows) => rows.length === count && rows.every((r) => r.status === 'SENT'),
      `${count} low-balance messages sent`,
    );

  const alerts = async (count: number): Promise<SinkMail[]> => {
    await sentRows(count);
    return eventually(
      () => mailsTo(sink(), address),
      (mails) => mails.length >= count,
      `${count} low-balance e-mails to ${address}`,
    );
  };

  it('30 concurrent calls crossing the threshold send one e-mail', async () => {
    const answers = await calls(30);
    expect(answers.every((e) => e.status === 'SUCCEEDED')).toBe(true);
    const mails = await alerts(1);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.headers['x-event']).toBe('LOW_BALANCE_TENANT');
    expect(mail!.headers['x-tenant-id']).toBe(account.tenantId);
    expect(mail!.text).toContain('below the alert threshold of 20');
    // Falling further does not send another.
    await calls(5);
    await sentRows(1);
    expect(await mailsTo(sink(), address)).toHaveLength(1);
  });

  it('a top-up to the threshold re-arms it: the next fall sends the second e-mail', async () => {
    const balance = await graphqlOk<{ topUpCredits: number }>(
      'mutation($t: ID!) { topUpCredits(tenantId: $t, amount: 30, reason: "re-arm") }',
      { t: account.tenantId },
      admin,
    );
    expect(balance.topUpCredits).toBe(35);
    const alert = await graphqlOk<{ lowBalanceAlert: { armed: boolean } }>(
      '{ lowBalanceAlert { armed } }',
      {},
      account.console,
    );
    expect(alert.lowBalanceAlert.armed).toBe(true);
    await calls(20);
    const mails = await alerts(2);
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(2);
    expect(mails.every((m) => m.headers['x-tenant-id'] === account.tenantId)).toBe(true);
  });
});
