import { defineRoute, ok, type Route } from '../route.js';

/** The `data` of the verification, in DESIGN.md section 5's order. */
const VERIFICATION_FIELDS = 'businessNumber registered status closedAt taxType';

/**
 * The body's `businessNumber` when it is a string, otherwise "" (missing, a number, a body that
 * is not an object). Every request reaches the subgraph, which counts it toward the caller's
 * limit before it checks anything (DESIGN.md section 5: every request counts); "" then fails the
 * format check there, a 400 INVALID_BUSINESS_NUMBER like any other bad number.
 */
function businessNumberOf(body: unknown): string {
  const value =
    body && typeof body === 'object' ? (body as Record<string, unknown>)['businessNumber'] : null;
  return typeof value === 'string' ? value : '';
}

/** Specification section 4.6: no authentication; the rule and the limit live in settlement. */
export const publicRoutes: Route<never>[] = [
  defineRoute<Record<string, unknown>>({
    method: 'POST',
    path: '/api/public/business/verify',
    document: `query($businessNumber: String!) {
      result: verifyBusinessNumber(businessNumber: $businessNumber) { ${VERIFICATION_FIELDS} } }`,
    variables: (request) => ({ businessNumber: businessNumberOf(request.body) }),
    respond: (data) => ok(data['result']),
  }) as Route<never>,
];
