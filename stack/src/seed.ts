import pg from 'pg';

/**
 * Demo data (DESIGN.md section 5): the default agency and one more, partners of all three entity
 * types with bank accounts, advertisers, and campaigns in several states. Runs once: a database
 * that already has agencies is left as it is.
 */
export async function seedSettlement(url: string): Promise<boolean> {
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
             ('Seoul Creators Agency', 'seoul-creators', 'Seoul Creators Co., Ltd.', '2148711234', 'Lee Seoyeon',
              'KB Kookmin Bank', '123456-01-234567', 'Seoul Creators Co., Ltd.', 'billing@seoulcreators.example', false)`);
    await client.query(`
      insert into advertiser (name, email) values
        ('Glow Cosmetics', 'ads@glow.example'),
        ('Urban Coffee', 'marketing@urbancoffee.example')`);
    await client.query(`
      insert into partner (name, entity_type, commission_rate, email, bank_name, account_number, account_holder, account_id) values
        ('Han River Media', 'CORPORATE_BUSINESS', 15.00, 'finance@hanriver.example', 'Woori Bank', '1002-345-678901', 'Han River Media Co.', '2768504661832939406159'),
        ('Jiwoo Studio', 'INDIVIDUAL_BUSINESS', null, 'jiwoo@studio.example', 'Hana Bank', '356-910123-45607', 'Park Jiwoo', '2446091425265256525'),
        ('Minseo Park', 'INDIVIDUAL', null, 'minseo@creator.example', 'Kakao Bank', '3333-01-2345678', 'Park Minseo', '83166758242460299')`);
    await client.query(`
      insert into campaign (partner_id, advertiser_id, agency_id, title, price, commission_rate, settlement_type, status) values
        (1, 1, null, 'Spring serum launch reels', 3000000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (2, 1, null, 'Cushion foundation review', 1500000.00, 18.50, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (3, 2, 2, 'Cold brew summer vlog', 1000000.00, null, 'PLATFORM_SETTLEMENT', 'CREATED'),
        (3, 2, null, 'Latte art short', 500000.00, null, 'DIRECT_INVOICE', 'CREATED'),
        (1, 2, 2, 'Store opening live', 2500000.00, 12.00, 'DIRECT_INVOICE', 'CREATED')`);
    await client.query('commit');
    return true;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}
