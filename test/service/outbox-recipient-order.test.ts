import { describe, expect, it } from 'vitest';
import { connectSql } from '@campaign/stack';
import { Agency, Settlement, settlementOutbox } from '@campaign/settlement';
import { useSettlementServices } from '../support/service-database.js';
import { agencyFixture, asClient, handlers, lend, worker } from './outbox-support.js';

/**
 * Issue 23 item 6: one recipient's e-mails leave in the order the steps that wrote them
 * happened, even across two settlements (two subjects): a later e-mail whose earlier one is
 * still PENDING is put back, with no attempt counted, until that one went.
 */
const { orm, services, em, admin } = useSettlementServices();

/** A settlement of `advertiserId`'s campaign: its id. */
async function settlementOf(partnerId: number, advertiserId: number): Promise<string> {
  const campaign = await services.campaigns.create(
    em(),
    { partnerId, advertiserId, title: 'Spring', price: '1000000.00' },
    admin,
  );
  await services.campaignUpload.markUploaded(em(), campaign.id, admin);
  return (await em().findOneOrFail(Settlement, { campaignId: campaign.id })).id;
}

describe('outbox: one recipient’s e-mails in order', () => {
  it('a later e-mail to the same address waits for the earlier one, across settlements', async () => {
    await em().insert(Agency, agencyFixture('platform', true));
    const partner = await services.partners.createPartner(em(), {
      name: 'Minseo',
      entityType: 'INDIVIDUAL',
      email: 'minseo@example.com',
      bankName: 'Kakao Bank',
      accountNumber: '3333-01-1234567',
      accountHolder: 'Park Minseo',
    });
    const advertiser = await services.partners.createAdvertiser(em(), {
      name: 'Glow',
      email: 'ads@glow.example',
    });
    const [first, second] = [
      await settlementOf(Number(partner.id), Number(advertiser.id)),
      await settlementOf(Number(partner.id), Number(advertiser.id)),
    ];
    const write = (settlementId: string, event: string) =>
      settlementOutbox.enqueue((sql, params) => em().execute(sql, params), {
        event,
        channel: 'EMAIL',
        recipient: 'ads@glow.example',
        subject: settlementId,
        payload: {},
        dedupeKey: `${settlementId}:order:${event}`,
      });
    await write(first!, 'PAYMENT_REQUEST_ADVERTISER');
    await write(second!, 'PAYMENT_CONFIRMED_ADVERTISER');
    // Another recipient's e-mail is not held by them.
    await settlementOutbox.enqueue((sql, params) => em().execute(sql, params), {
      event: 'ADVERTISER_PAID_PARTNER',
      channel: 'EMAIL',
      recipient: 'minseo@example.com',
      subject: second!,
      payload: {},
      dedupeKey: `${second}:order:partner`,
    });
    const db = await connectSql(orm().config.get('clientUrl')!);
    try {
      const client = asClient(db);
      const ids = (
        await db.query<{ id: string; recipient: string }>(
          `select id::text as id, recipient from outbox
            where dedupe_key like '%:order:%' order by id`,
        )
      ).map((r) => r.id);
      const [earlier, later, partnerMail] = ids;
      const h = handlers();
      // The later one first (its job ran first): put back, not sent, no attempt counted.
      await worker(h).deliver(lend(client), later!);
      await worker(h).deliver(lend(client), partnerMail!);
      expect(h.EMAIL.mock.calls.map(([row]) => row.recipient)).toEqual(['minseo@example.com']);
      const [held] = await db.query<{ status: string; attempts: number; waiting: boolean }>(
        'select status, attempts, available_at > now() as waiting from outbox where id = $1',
        [later],
      );
      expect(held).toEqual({ status: 'PENDING', attempts: 0, waiting: true });

      await worker(h).deliver(lend(client), earlier!);
      await db.query(`update outbox set available_at = now() where id = $1`, [later]);
      await worker(h).deliver(lend(client), later!);
      expect(h.EMAIL.mock.calls.map(([row]) => row.event)).toEqual([
        'ADVERTISER_PAID_PARTNER',
        'PAYMENT_REQUEST_ADVERTISER',
        'PAYMENT_CONFIRMED_ADVERTISER',
      ]);
    } finally {
      await db.end();
    }
  });
});
