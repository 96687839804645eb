/** A bank account as documents keep it: a snapshot of the payer's or payee's account. */
export interface BankAccount {
  bankName: string | null;
  accountNumber: string | null;
  accountHolder: string | null;
}

/** The snapshot of `from`'s account (a partner, an agency, a settlement). */
export const bankAccountOf = (from: BankAccount): BankAccount => ({
  bankName: from.bankName,
  accountNumber: from.accountNumber,
  accountHolder: from.accountHolder,
});
