import { describe, expect, it } from 'vitest';
import { codeById, graphql, stack } from '../support/clients.js';
import * as f from './support.js';
import * as t from './tax-invoice-support.js';

/**
 * A failed reverse issuance has a way out (issue 23 item 3): the partner's approval link (REST
 * and GraphQL) and the admin's `retryReverseIssuance` start a new one at once; a business partner
 * without a business number cannot request, and an admin records the number with updatePartner.
 */
describe('reverse issuance after a failure', () => {
  const ctx = f.useAdmin();

  /** A `manual_` partner's requested settlement whose reverse issuance the provider refused. */
  async function failed() {
    const { id, partner, requested: body } = await t.requestedBy(ctx.admin, 'manual_');
    const key = String(t.reverseOf(body)['issuanceKey']);
    const answer = await t.deliver(JSON.stringify(t.resultEvent(key, 'REVERSE', 'FAILURE')));
    expect(answer.status).toBe(200);
    await t.untilReverse(ctx.admin, id, 'FAILURE');
    return { id, partner, key };
  }

  const approvalMails = async (id: string) =>
    (await f.outboxOf(ctx.db, id)).filter((r) => r.event === 'REVERSE_ISSUANCE_APPROVAL_PARTNER');

  it('REST: the approval link after a FAILURE starts a new reverse issuance with the next key', async () => {
    const { id, partner, key } = await failed();
    const grant = await f.expectOk(
      f.call<{ settlementId: string; grantUrl: string }>(
        'GET',
        f.partnerPath(id, '/reverse-issuance-grant-url'),
        partner.token,
      ),
    );
    expect(grant.grantUrl).toMatch(new RegExp(`^${stack().taxInvoice}/approve/`));
    const reverse = t.reverseOf(await t.detail(ctx.admin, id));
    expect(reverse).toMatchObject({ status: 'PENDING', grantUrl: grant.grantUrl });
    expect(reverse['issuanceKey']).toBe(key.replace(/-R1$/, '-R2'));
    expect((await approvalMails(id)).map((m) => m.payload['approvalUrl'])).toContain(
      grant.grantUrl,
    );
    const audit = await f.auditOf(ctx.db, id);
    expect(audit.filter((a) => a.action === 'REVERSE_ISSUANCE_RETRIED')).toHaveLength(1);
  });

  it('GraphQL: the partner field and the admin mutation do the same', async () => {
    const first = await failed();
    const field = await graphql<{ reverseIssuanceGrantUrl: { grantUrl: string } }>(
      `
        query ($id: ID!) {
          reverseIssuanceGrantUrl(id: $id) {
            grantUrl
          }
        }
      `,
      { id: first.id },
      first.partner.token,
    );
    expect(field.errors).toBeUndefined();
    expect(field.data!.reverseIssuanceGrantUrl.grantUrl).toMatch(/\/approve\//);

    const second = await failed();
    const retried = await graphql<{ retryReverseIssuance: f.SettlementBody }>(
      `
        mutation ($id: ID!) {
          retryReverseIssuance(id: $id) {
            status
            reverseIssuance {
              status
              issuanceKey
              grantUrl
            }
          }
        }
      `,
      { id: second.id },
      ctx.admin,
    );
    expect(retried.errors).toBeUndefined();
    expect(retried.data!.retryReverseIssuance.reverseIssuance).toMatchObject({
      status: 'PENDING',
      issuanceKey: second.key.replace(/-R1$/, '-R2'),
    });
    // A pending one is not started again.
    expect(await codeById('mutation', 'retryReverseIssuance', second.id, ctx.admin)).toBe(
      'CONFLICT',
    );
  });
});

describe('a business partner without a business number', () => {
  const ctx = f.useAdmin();

  async function numberless() {
    const partnerId = await f.createPartner(ctx.admin, 'CORPORATE_BUSINESS', {
      businessNumber: null,
    });
    const advertiserId = await f.createAdvertiser(ctx.admin);
    const id = await f.newSettlement(ctx.admin, { partnerId, advertiserId });
    return { id, partnerId, token: await f.partnerToken(partnerId) };
  }

  const updatePartner = (id: number, input: Record<string, unknown>) =>
    graphql<{ updatePartner: { id: string; businessNumber: string | null; name: string } }>(
      `
        mutation ($id: ID!, $input: UpdatePartnerInput!) {
          updatePartner(id: $id, input: $input) {
            id
            businessNumber
            name
          }
        }
      `,
      { id, input },
      ctx.admin,
    );

  it('REST: request is 409 naming the number and updatePartner, nothing moves; recorded, it goes', async () => {
    const { id, partnerId, token } = await numberless();
    const error = await f.expectError(
      f.call('POST', f.partnerPath(id, '/request'), token),
      409,
      'PARTNER_BUSINESS_NUMBER_MISSING',
    );
    expect(error.message).toMatch(/business registration number/);
    expect(error.message).toMatch(/updatePartner/);
    expect((await t.detail(ctx.admin, id)).status).toBe('SETTLEMENT_PENDING');
    expect((await f.auditOf(ctx.db, id)).map((a) => a.action)).toEqual(['CREATED']);

    // The same rules as createPartner: a bad check digit, a cleared required field.
    const bad = await updatePartner(partnerId, { businessNumber: '1234567890' });
    expect(bad.errors?.[0]?.extensions?.['code']).toBe('INVALID_BUSINESS_NUMBER');
    const cleared = await updatePartner(partnerId, { name: null });
    expect(cleared.errors?.[0]?.extensions?.['code']).toBe('INVALID_REQUEST');
    const recorded = await updatePartner(partnerId, { businessNumber: '101-86-23450' });
    expect(recorded.errors).toBeUndefined();
    expect(recorded.data!.updatePartner.businessNumber).toBe('1018623450');
    expect(recorded.data!.updatePartner.name).toMatch(/Partner/);

    const requested = await f.expectOk(f.call('POST', f.partnerPath(id, '/request'), token));
    expect(requested.status).toBe('AWAITING_ADVERTISER_PAYMENT');
  });

  it('GraphQL: requestSettlement answers the same 409', async () => {
    const { id, token } = await numberless();
    expect(await codeById('mutation', 'requestSettlement', id, token)).toBe(
      'PARTNER_BUSINESS_NUMBER_MISSING',
    );
    expect((await t.detail(ctx.admin, id)).status).toBe('SETTLEMENT_PENDING');
  });
});
