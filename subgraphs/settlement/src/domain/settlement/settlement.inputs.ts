import { Field, ID, InputType } from 'type-graphql';
import { AgencyPeriodFilter } from '../../kernel/graphql-page.js';
import { SettlementStatus, SettlementType } from '../../kernel/settlement-types.js';

/**
 * The `reason` and `adminNotes` of the settlement bodies, declared once as field decorators (not a
 * base class: type-graphql lists a base class's fields first, and the published field order of
 * each body stays as it was).
 */
const AuditReason = () =>
  Field(() => String, { nullable: true, description: 'Kept in the audit trail' });
const AdminNotes = () =>
  Field(() => String, {
    nullable: true,
    description: 'Admins only: stored on the settlement (adminNotes) and kept in the audit trail',
  });

/** Filters of GET /api/admin/settlements (spec 4.1: partner, campaign, status, date, agency). */
@InputType()
export class SettlementFilter extends AgencyPeriodFilter('settlements') {
  @Field(() => ID, { nullable: true }) partnerId?: string | null;
  @Field(() => ID, { nullable: true }) campaignId?: string | null;
  @Field(() => SettlementStatus, { nullable: true }) status?: SettlementStatus | null;
}

/** Filters of GET /api/partner/settlements: the partner's own, by campaign, status, date. */
@InputType()
export class PartnerSettlementFilter {
  @Field(() => ID, { nullable: true }) campaignId?: string | null;
  @Field(() => SettlementStatus, { nullable: true }) status?: SettlementStatus | null;
  @Field(() => String, { nullable: true }) from?: string | null;
  @Field(() => String, { nullable: true }) to?: string | null;
}

@InputType({ description: 'Body of PATCH /api/admin/settlements/:id/status' })
export class ChangeSettlementStatusInput {
  @Field(() => SettlementStatus) status!: SettlementStatus;
  @AuditReason() reason?: string | null;
  @AdminNotes() adminNotes?: string | null;
}

@InputType({ description: 'Body of PATCH /api/admin/settlements/:id/type' })
export class ChangeSettlementTypeInput {
  @Field(() => SettlementType) settlementType!: SettlementType;
  @AuditReason() reason?: string | null;
  @AdminNotes() adminNotes?: string | null;
}

@InputType({ description: 'Optional body of the settlement actions (POST .../cancel and others)' })
export class SettlementActionInput {
  @AuditReason() reason?: string | null;
  @AdminNotes() adminNotes?: string | null;
}

@InputType({ description: 'Optional body of POST /api/admin/settlements/:id/complete' })
export class CompleteSettlementInput {
  @Field(() => String, { nullable: true }) reason?: string | null;
  @Field(() => String, { nullable: true, description: 'Bank transfer id, kept on the payout' })
  transactionId?: string | null;
  @AdminNotes() adminNotes?: string | null;
}

@InputType()
export class ConfirmPartnerInvoiceInput {
  @Field(() => String, { nullable: true }) partnerInvoiceNumber?: string | null;
  @Field(() => String, { nullable: true }) reason?: string | null;
  @AdminNotes() adminNotes?: string | null;
}
