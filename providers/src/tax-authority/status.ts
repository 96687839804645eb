/**
 * One entry of the national tax service's business-status answer (국세청 사업자등록 상태조회,
 * `POST /api/nts-businessman/v1/status`), field for field; every field is a string, empty when
 * it does not apply.
 */
export interface NtsStatusEntry {
  b_no: string;
  /** 계속사업자 | 휴업자 | 폐업자, or "" for an unregistered number. */
  b_stt: string;
  /** "01" active, "02" suspended, "03" closed, "" unregistered. */
  b_stt_cd: string;
  /** The tax type in words, or the "not registered" sentence. */
  tax_type: string;
  tax_type_cd: string;
  /** Closing date, YYYYMMDD, for a closed business. */
  end_dt: string;
  /** Closed because of a switch to unit taxation (단위과세전환폐업여부): Y/N. */
  utcc_yn: string;
  tax_type_change_dt: string;
  invoice_apply_dt: string;
  /** The previous tax type (직전과세유형), added in v1.1. */
  rbf_tax_type: string;
  rbf_tax_type_cd: string;
}

export const NOT_REGISTERED_MESSAGE = '국세청에 등록되지 않은 사업자등록번호입니다.';

const TAX_TYPES = {
  '01': '부가가치세 일반과세자',
  '02': '부가가치세 간이과세자',
  '04': '부가가치세 면세사업자',
  '06': '고유번호가 부여된 단체',
} as const;

/**
 * The tax type, a deterministic function of the number (the 4th-5th digits are the kind of
 * taxpayer in real numbers): 90-99 tax-exempt, 80 and 89 organisations with an id number,
 * otherwise a general taxpayer, or a simplified one when the 9th digit is 0.
 */
function taxTypeOf(bNo: string): keyof typeof TAX_TYPES {
  const kind = Number(bNo.slice(3, 5));
  if (kind >= 90) return '04';
  if (kind === 80 || kind === 89) return '06';
  return bNo[8] === '0' ? '02' : '01';
}

/** A closing date in 2025 made from the number, so a number always closed on the same day. */
function closingDateOf(bNo: string): string {
  const month = (Number(bNo.slice(6, 8)) % 12) + 1;
  const day = (Number(bNo.slice(8, 10)) % 28) + 1;
  return `2025${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}`;
}

function unregistered(bNo: string): NtsStatusEntry {
  return {
    b_no: bNo,
    b_stt: '',
    b_stt_cd: '',
    tax_type: NOT_REGISTERED_MESSAGE,
    tax_type_cd: '',
    end_dt: '',
    utcc_yn: '',
    tax_type_change_dt: '',
    invoice_apply_dt: '',
    rbf_tax_type: '',
    rbf_tax_type_cd: '',
  };
}

/**
 * The simulated authority's answer for one number (DESIGN.md section 5): by the 6th of the ten
 * digits, 9 closed (with a closing date), 8 suspended, 7 not registered, anything else active.
 * Anything that is not ten digits is not registered, as the real service answers.
 */
export function simulatedStatus(bNo: string): NtsStatusEntry {
  if (!/^\d{10}$/.test(bNo) || bNo[5] === '7') return unregistered(bNo);
  const [b_stt, b_stt_cd] =
    bNo[5] === '9' ? ['폐업자', '03'] : bNo[5] === '8' ? ['휴업자', '02'] : ['계속사업자', '01'];
  const taxType = taxTypeOf(bNo);
  return {
    b_no: bNo,
    b_stt,
    b_stt_cd,
    tax_type: TAX_TYPES[taxType],
    tax_type_cd: taxType,
    end_dt: b_stt_cd === '03' ? closingDateOf(bNo) : '',
    utcc_yn: 'N',
    tax_type_change_dt: '',
    invoice_apply_dt: '',
    rbf_tax_type: '해당없음',
    rbf_tax_type_cd: '99',
  };
}
