import { z } from 'zod';
import { createAgencyRules, updateAgencyRules } from '../domain/agency/agency-rules.js';
import { businessNumberField } from '../kernel/business-number/business-number-field.js';
import { limitRules } from '../kernel/paging.js';
import { quotationFilterRules } from '../domain/quotation/quotation.service.js';
import { quotationLineRules, quotationRules } from '../domain/quotation/quotation-rules.js';
import { settlementFilterRules } from '../domain/settlement/list-args.js';
import { actionRules, completeRules, partnerInvoiceRules } from '../flows/trigger-inputs.js';

/**
 * The zod rule that reads each GraphQL input type, by the type's name, and each argument that
 * has a rule of its own, by the argument's name: what the published OpenAPI document states
 * beyond GraphQL's types (lengths, ranges, formats, "never null"), so that a request valid by the
 * document is never refused for its shape (issue 21). `npm run compose` turns them into JSON
 * Schema (stack/src/settlement-openapi.ts); a rule added to a service belongs here too.
 */
export const inputTypeRules: Record<string, z.ZodObject> = {
  CreateAgencyInput: createAgencyRules,
  UpdateAgencyInput: updateAgencyRules,
  QuotationInput: quotationRules,
  QuotationLineInput: quotationLineRules,
  QuotationFilter: quotationFilterRules,
  SettlementFilter: settlementFilterRules,
  PartnerSettlementFilter: settlementFilterRules,
  SettlementActionInput: actionRules,
  ChangeSettlementStatusInput: actionRules,
  ChangeSettlementTypeInput: actionRules,
  CompleteSettlementInput: completeRules,
  ConfirmPartnerInvoiceInput: partnerInvoiceRules,
};

/** Arguments read by a rule of their own; one name, one rule, wherever it is taken. */
export const argumentRules: Record<string, z.ZodType> = {
  limit: limitRules.shape.limit,
  businessNumber: businessNumberField,
};

/** The rules as JSON Schema of what they take (zod 4's own output; refinements it cannot say are left out). */
export function inputRuleJsonSchemas(): {
  types: Record<string, Record<string, unknown>>;
  arguments: Record<string, Record<string, unknown>>;
} {
  const json = (rule: z.ZodType) => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(rule, {
      io: 'input',
      unrepresentable: 'any',
    });
    return schema;
  };
  const map = (rules: Record<string, z.ZodType>) =>
    Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, json(rule)]));
  return { types: map(inputTypeRules), arguments: map(argumentRules) };
}
