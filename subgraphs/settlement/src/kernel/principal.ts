/**
 * The platform's token, as the settlement subgraph and its tools use it. Which role may call an
 * operation is declared on the resolver with `@Authorized` and checked by the platform's
 * `authChecker` (schema.ts); which rows it may see is `scope.ts`.
 */
export {
  ADMIN_ROLES,
  roles,
  signToken,
  verifyPrincipal as verifyAuthorization,
  type JwtSettings,
  type Principal,
  type Role,
} from '@campaign/platform';
