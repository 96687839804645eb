import { z } from 'zod';
import { optionalText, parseInput } from '../kernel/input-rules.js';

/**
 * The optional body of every action: a reason kept in the audit trail and, from admins, notes
 * stored on the settlement (issue 23 item 6; undefined: the notes are kept as they are).
 */
export interface ActionInput {
  reason?: string | null;
  adminNotes?: string | null;
}

const reason = optionalText(1000);
/** Optional: left out (undefined) keeps the stored notes; null clears them. */
const adminNotes = optionalText(2000).optional();

export const actionRules = z.object({ reason, adminNotes });
export const completeRules = z.object({ reason, adminNotes, transactionId: optionalText(100) });
export const partnerInvoiceRules = z.object({
  reason,
  adminNotes,
  partnerInvoiceNumber: optionalText(100),
});

/** Read before anything runs, so a bad body changes nothing. */
export const readAction = (input?: ActionInput | null) =>
  parseInput(actionRules, { reason: input?.reason, adminNotes: input?.adminNotes });

export const readComplete = (input?: (ActionInput & { transactionId?: string | null }) | null) =>
  parseInput(completeRules, {
    reason: input?.reason,
    adminNotes: input?.adminNotes,
    transactionId: input?.transactionId,
  });

export const readPartnerInvoice = (
  input?: (ActionInput & { partnerInvoiceNumber?: string | null }) | null,
) =>
  parseInput(partnerInvoiceRules, {
    reason: input?.reason,
    adminNotes: input?.adminNotes,
    partnerInvoiceNumber: input?.partnerInvoiceNumber,
  });
