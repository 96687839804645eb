import { z } from 'zod';
import { optionalText, parseInput } from '../kernel/input-rules.js';

/** The optional body of every action: a reason kept in the audit trail. */
export interface ActionInput {
  reason?: string | null;
}

const reason = optionalText(1000);

export const actionRules = z.object({ reason });
export const completeRules = z.object({ reason, transactionId: optionalText(100) });
export const partnerInvoiceRules = z.object({ reason, partnerInvoiceNumber: optionalText(100) });

/** Read before anything runs, so a bad body changes nothing. */
export const readAction = (input?: ActionInput | null) =>
  parseInput(actionRules, { reason: input?.reason });

export const readComplete = (input?: (ActionInput & { transactionId?: string | null }) | null) =>
  parseInput(completeRules, { reason: input?.reason, transactionId: input?.transactionId });

export const readPartnerInvoice = (
  input?: (ActionInput & { partnerInvoiceNumber?: string | null }) | null,
) =>
  parseInput(partnerInvoiceRules, {
    reason: input?.reason,
    partnerInvoiceNumber: input?.partnerInvoiceNumber,
  });
