import 'reflect-metadata';
import pg from 'pg';
import type { Principal } from '@campaign/platform';
import { initSettlementOrm } from '@campaign/settlement';
import { createSettlementServices } from '@campaign/settlement';
import { Settlement } from '@campaign/settlement';
import { demoWithout, seedQuotations } from './seed-quotations.js';

/**
 * Demo data (DESIGN.md section 5): the default agency and one more, partners of all three entity
 * types with bank accounts, advertisers, and campaigns in several states with settlements in
 * every status, so that every settlement path can be tried at once (docs/settlement.md lists
 * them), and quotations in every status (seed-quotations.ts). Runs once: the base rows when the
 * database has no agency, the settlement states when it has no settlement yet.
 */
export async function seedSettlement(url: string): Promise<boolean> {
  const seeded = await seedBase(url);
  await seedSettlementStates(url);
  await seedQuotations(url);
  return seeded;
}

async function seedBase(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from agency limit 1');
    if (rowCount) return false;
    await client.query('begin');
    await client.query(`
      insert into agency (name, code, business_name, business_number, representative_name, bank_name,
                          account_number, account_holder, email, is_default)
      values ('Campaign Platform', 'platform', 'Campaign Platform Co., Ltd.', '1208147521', 'Kim Minjun',
              'Shinhan Bank', '110-123-456789', 'Campaign Platform Co., Ltd.', 'settlement@platform.example', true),
             ('Seoul Creators Agency', 'seoul-creators', 'Seoul Creators Co., Ltd.', '2148711238', 'Lee Seoyeon',
              'KB Kookmin Bank', '123456-01-234567', 'Seoul Creators Co., Ltd.', 'billing@seoulcreators.example', false)`);
    await client.query(`
      insert into advertiser (name, email) values
        ('Glow Cosmetics', 'ads@glow.example'),
        ('Urban Coffee', 'marketing@urbancoffee.example')`);
    await client.query(`
      insert into partner (name, entity_type, commission_rate, email, bank_name, account_number, account_holder, account_id, business_number) values
        ('Han River Media', 'CORPORATE_BUSINESS', 15.00, 'finance@hanriver.example', 'Woori Bank', '1002-345-678901', 'Han River Media Co.', '2768504661832939406159', '1018623450'),
        ('Jiwoo Studio', 'INDIVIDUAL_BUSINESS', null, 'jiwoo@studio.example', 'Hana Bank', '356-910123-45607', 'Park Jiwoo', '2446091425265256525', '3142751123'),
        ('Minseo Park', 'INDIVIDUAL', null, 'minseo@creator.example', 'Kakao Bank', '3333-01-2345678', 'Park Minseo', '83166758242460299', null)`);
    await client.query(`
      insert into campaign (partner_id, advertiser_id, agency_id, title, price, commission_rate, settlement_type, status) values
        (1, 1, null, 'Spring serum launch reels', 3000000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (2, 1, null, 'Cushion foundation review', 1500000.00, 18.50, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (3, 2, 2, 'Cold brew summer vlog', 1000000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (3, 2, null, 'Latte art short', 500000.00, null, 'DIRECT_INVOICE', 'CREATED'),
        (1, 2, 2, 'Store opening live', 2500000.00, 12.00, 'DIRECT_INVOICE', 'CREATED'),
        (3, 1, null, 'Night routine story', 800000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (1, 1, null, 'Sunscreen beach shoot', 4200000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (2, 2, 2, 'Barista class series', 1200000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (3, 2, null, 'Autumn menu teaser', 650000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (2, 1, null, 'Lip tint swatches', 900000.00, null, 'DIRECT_INVOICE', 'CREATED'),
        (1, 2, null, 'Cancelled pop-up', 700000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED')`);
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}

const admin: Principal = {
  subject: 'demo-seed',
  role: 'SUPER_ADMIN',
  agencyId: null,
  partnerId: null,
};
const partner = (partnerId: string): Principal => ({
  subject: 'demo-seed',
  role: 'PARTNER',
  agencyId: null,
  partnerId,
});

/**
 * Drives the demo campaigns through the real services (so amounts, invoices, payouts, numbers,
 * audit and outbox are what the API itself produces). SET<n> as listed in docs/settlement.md.
 */
async function seedSettlementStates(url: string): Promise<void> {
  if (!(await demoWithout(url, 'settlement'))) return;
  const orm = await initSettlementOrm(url, 2);
  try {
    const em = () => orm.em.fork();
    const { campaignUpload, workflow } = createSettlementServices();
    const { partnerRequest, platformFlow: platform, directFlow: direct, cancellation } = workflow;
    const upload = async (campaignId: string) => {
      await campaignUpload.markUploaded(em(), campaignId, admin);
      return em().findOneOrFail(Settlement, { campaignId });
    };

    // SET1 CAM1: Han River (corporate), PLATFORM_SETTLEMENT, SETTLEMENT_PENDING.
    await upload('CAM1');
    // SET2 CAM3: Minseo (individual), agency 2, requested and invoiced: AWAITING_ADVERTISER_PAYMENT.
    const set2 = await upload('CAM3');
    await partnerRequest.request(em(), partner(set2.partnerId), set2.id);
    await platform.retryIssuance(em(), admin, set2.id);
    // SET3 CAM4: Minseo, DIRECT_INVOICE, requested: AWAITING_ADVERTISER_PAYMENT.
    const set3 = await upload('CAM4');
    await partnerRequest.request(em(), partner(set3.partnerId), set3.id);
    // SET4 CAM5: Han River, DIRECT_INVOICE, agency 2: SETTLEMENT_PENDING.
    await upload('CAM5');
    // SET5 CAM6: Minseo, PLATFORM_SETTLEMENT: ADVERTISER_PAID (start-payout next).
    const set5 = await upload('CAM6');
    await partnerRequest.request(em(), partner(set5.partnerId), set5.id);
    await platform.retryIssuance(em(), admin, set5.id);
    await platform.confirmAdvertiserPayment(em(), admin, set5.id, { reason: 'demo deposit' });
    // SET6 CAM7: Han River: PARTNER_PAYOUT_PROCESSING; its reverse issuance (sent by the outbox
    // once the stack runs) is approved by the simulated partner: then `complete`.
    const set6 = await upload('CAM7');
    await partnerRequest.request(em(), partner(set6.partnerId), set6.id);
    await platform.retryIssuance(em(), admin, set6.id);
    await platform.confirmAdvertiserPayment(em(), admin, set6.id);
    await platform.startPayout(em(), admin, set6.id);
    // SET7 CAM8: Jiwoo (individual business), agency 2: PARTNER_PAYOUT_PROCESSING, invoice in.
    const set7 = await upload('CAM8');
    await partnerRequest.request(em(), partner(set7.partnerId), set7.id);
    await platform.retryIssuance(em(), admin, set7.id);
    await platform.confirmAdvertiserPayment(em(), admin, set7.id);
    await platform.startPayout(em(), admin, set7.id);
    await platform.confirmPartnerInvoiceReceived(em(), admin, set7.id, {
      partnerInvoiceNumber: 'TI-DEMO-7',
    });
    // SET8 CAM9: Minseo: SETTLEMENT_COMPLETED.
    const set8 = await upload('CAM9');
    await partnerRequest.request(em(), partner(set8.partnerId), set8.id);
    await platform.retryIssuance(em(), admin, set8.id);
    await platform.confirmAdvertiserPayment(em(), admin, set8.id);
    await platform.startPayout(em(), admin, set8.id);
    await platform.complete(em(), admin, set8.id, { transactionId: 'DEMO-TX-8' });
    // SET9 CAM10: Jiwoo, DIRECT_INVOICE: SETTLEMENT_COMPLETED.
    const set9 = await upload('CAM10');
    await partnerRequest.request(em(), partner(set9.partnerId), set9.id);
    await direct.markInvoiceIssued(em(), partner(set9.partnerId), set9.id);
    await direct.markInvoicePaid(em(), partner(set9.partnerId), set9.id);
    // SET10 CAM11: Han River: SETTLEMENT_CANCELLED after its invoice was requested.
    const set10 = await upload('CAM11');
    await platform.retryIssuance(em(), admin, set10.id);
    await cancellation.cancel(em(), admin, set10.id, { reason: 'pop-up called off' });
    // CAM2 (Jiwoo, PLATFORM_SETTLEMENT) stays CREATED: markCampaignUploaded creates SET11.
  } finally {
    await orm.close();
  }
}
