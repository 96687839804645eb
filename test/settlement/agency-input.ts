/** Agency bodies for the agency tests of both tiers (whole-stack and service). */

let seq = 0;

/**
 * An agency code no other test file (nor an earlier run on the same stack) uses: 2-30 letters,
 * digits, `_` and `-`. Files run in parallel on one stack, so codes carry the process and time.
 */
export function uniqueCode(prefix = 'T'): string {
  const code = `${prefix}${process.pid.toString(36)}${Date.now().toString(36)}${(++seq).toString(36)}`;
  return code.slice(-30);
}

/** A valid create body (every string field of spec 2.4). */
export function agencyInput(code = uniqueCode(), extra: Record<string, unknown> = {}) {
  return {
    name: `Agency ${code}`,
    code,
    businessName: `${code} Co., Ltd.`,
    businessNumber: '220-81-62517',
    representativeName: 'Choi Yuna',
    bankName: 'Woori Bank',
    accountNumber: '1002-777-123456',
    accountHolder: `${code} Co., Ltd.`,
    email: `billing@${code.toLowerCase()}.example`,
    ...extra,
  };
}
