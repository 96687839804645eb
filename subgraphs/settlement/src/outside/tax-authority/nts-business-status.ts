import { callOutside, retryAfterSeconds } from '../http-client.js';
import {
  BusinessStatusUnavailableError,
  type BusinessStatus,
  type BusinessStatusService,
} from './business-status.port.js';

export interface NtsBusinessStatusOptions {
  /** e.g. `https://api.odcloud.kr` (the public data portal), or the simulator's URL. */
  baseUrl: string;
  /** The portal's service key, decoded form (it is URL-encoded here). */
  serviceKey?: string;
  /** Whole exchange (default 5 s): the caller is a person waiting on a sign-up form. */
  timeoutMs?: number;
}

export const NTS_STATUS_PATH = '/api/nts-businessman/v1/status';

const STATUS_BY_CODE = { '01': 'ACTIVE', '02': 'SUSPENDED', '03': 'CLOSED' } as const;

/** The fields we read of one `data` entry; the service sends more. */
interface RawEntry {
  b_no?: unknown;
  b_stt_cd?: unknown;
  tax_type?: unknown;
  end_dt?: unknown;
}

/**
 * The business-status service of the national tax authority (국세청 사업자등록 상태조회):
 * `POST <base>/api/nts-businessman/v1/status?serviceKey=...` with `{"b_no": ["<10 digits>"]}`.
 * An unregistered number comes back with an empty `b_stt_cd` (and a sentence in `tax_type`,
 * which is not a tax type and is not passed on).
 */
export class NtsBusinessStatusService implements BusinessStatusService {
  constructor(private readonly options: NtsBusinessStatusOptions) {}

  async lookup(businessNumber: string): Promise<BusinessStatus> {
    const url = new URL(`${this.options.baseUrl.replace(/\/+$/, '')}${NTS_STATUS_PATH}`);
    if (this.options.serviceKey) url.searchParams.set('serviceKey', this.options.serviceKey);
    const answer = await callOutside(
      url,
      { body: { b_no: [businessNumber] }, timeoutMs: this.options.timeoutMs },
      (error) =>
        new BusinessStatusUnavailableError(error.failure, `tax authority ${error.message}`),
    );
    const body = answer.json as { status_code?: unknown; data?: unknown } | undefined;
    if (answer.status === 401 || answer.status === 403) {
      throw new BusinessStatusUnavailableError(
        'CREDENTIALS_REFUSED',
        `tax authority refused the service key (HTTP ${answer.status})`,
      );
    }
    if (answer.status !== 200 || body?.status_code !== 'OK') {
      const code = typeof body?.status_code === 'string' ? ` ${body.status_code}` : '';
      throw new BusinessStatusUnavailableError(
        answer.status === 200 ? 'BAD_ANSWER' : 'ERROR_ANSWER',
        `tax authority answered HTTP ${answer.status}${code}`,
        retryAfterSeconds(answer.headers),
      );
    }
    const entries = Array.isArray(body.data) ? (body.data as RawEntry[]) : [];
    const entry = entries.find((e) => e && e.b_no === businessNumber);
    if (!entry) {
      throw new BusinessStatusUnavailableError(
        'BAD_ANSWER',
        'tax authority answered without the number',
      );
    }
    return toBusinessStatus(businessNumber, entry);
  }
}

function toBusinessStatus(businessNumber: string, entry: RawEntry): BusinessStatus {
  const code = typeof entry.b_stt_cd === 'string' ? entry.b_stt_cd.trim() : '';
  if (code === '') {
    return { businessNumber, registered: false, status: null, closedAt: null, taxType: null };
  }
  const status = STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE];
  if (!status) {
    throw new BusinessStatusUnavailableError(
      'BAD_ANSWER',
      `unknown business status code "${code}"`,
    );
  }
  const endDate =
    typeof entry.end_dt === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(entry.end_dt) : null;
  const taxType =
    typeof entry.tax_type === 'string' && entry.tax_type.trim() ? entry.tax_type.trim() : null;
  return {
    businessNumber,
    registered: true,
    status,
    closedAt: status === 'CLOSED' && endDate ? `${endDate[1]}-${endDate[2]}-${endDate[3]}` : null,
    taxType,
  };
}
