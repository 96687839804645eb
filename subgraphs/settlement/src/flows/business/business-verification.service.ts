import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger, PostgresRateLimiter, RateLimitPolicy } from '@campaign/platform';
import { PlatformError } from '@campaign/schema';
import {
  BusinessStatusUnavailableError,
  type BusinessStatus,
  type BusinessStatusService,
} from '../../outside/tax-authority/business-status.port.js';
import { normaliseBusinessNumber } from '../../kernel/business-number/business-number.js';

/** DESIGN.md S12: 30 requests per client address per 15 minutes, shared by every replica. */
export const BUSINESS_VERIFY_LIMIT: RateLimitPolicy = { limit: 30, windowSeconds: 15 * 60 };

/** How long a caller waits after an outage when the authority named no time of its own. */
export const AUTHORITY_RETRY_AFTER_SECONDS = 5;

export interface BusinessVerificationParts {
  businessStatus: BusinessStatusService;
  limiter: PostgresRateLimiter;
  /** {@link BUSINESS_VERIFY_LIMIT} unless a test says otherwise. */
  policy?: RateLimitPolicy;
  /** Where an outage's cause goes: the caller is told only that the authority did not answer. */
  logger?: Logger;
}

/**
 * Public verification of a business registration number (specification 4.6, DESIGN.md S12),
 * the one rule behind `POST /api/public/business/verify` and the GraphQL query
 * `verifyBusinessNumber`. The order is the point:
 *
 * 1. the request is counted against the caller's address, whatever it holds: the endpoint needs
 *    no credential, so bad input must not be a free way to probe or to load the service;
 * 2. format and check digit locally (400 INVALID_BUSINESS_NUMBER), so a typing mistake never
 *    costs a call to the authority;
 * 3. the tax authority's answer; when it cannot answer, 503 PROVIDER_UNAVAILABLE (retryable,
 *    with Retry-After), never a guess about the number.
 */
export class BusinessVerificationService {
  private readonly policy: RateLimitPolicy;

  constructor(private readonly parts: BusinessVerificationParts) {
    this.policy = parts.policy ?? BUSINESS_VERIFY_LIMIT;
  }

  async verify(em: EntityManager, clientAddress: string, input: string): Promise<BusinessStatus> {
    await this.parts.limiter.consume(em, `business_verify:${clientAddress}`, this.policy);
    const businessNumber = normaliseBusinessNumber(input);
    try {
      return await this.parts.businessStatus.lookup(businessNumber);
    } catch (error) {
      if (!(error instanceof BusinessStatusUnavailableError)) throw error;
      this.parts.logger?.warn(
        { failure: error.failure, err: error.message },
        'tax authority unavailable for a business verification',
      );
      const retryAfterSeconds = error.retryAfterSeconds ?? AUTHORITY_RETRY_AFTER_SECONDS;
      throw new PlatformError(
        'PROVIDER_UNAVAILABLE',
        `The tax authority's business-status service did not answer; retry in ${retryAfterSeconds} s.`,
        { retryAfterSeconds },
      );
    }
  }
}
