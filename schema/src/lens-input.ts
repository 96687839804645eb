import { z } from 'zod';

/**
 * The input rules of the lens interface, written once: the limits of lens spec section 8 and the
 * zod field schemas built from them. The REST document's request schemas are these schemas as
 * JSON Schema (lens-openapi-requests.ts), the lens subgraph parses REST and GraphQL input with
 * them and derives its GraphQL input types from them, so REST and GraphQL cannot disagree.
 *
 * Text lengths count characters (Unicode code points), as JSON Schema's minLength/maxLength do;
 * zod's own string min/max count UTF-16 units, so a length rule is a refinement that also writes
 * its JSON Schema keywords.
 */

/** Lens spec section 8, one row each. */
export const LENS_LIMITS = {
  idempotencyKey: { min: 1, max: 128 },
  handle: { min: 1, max: 30 },
  accountId: { max: 30 },
  cursor: { max: 16384 },
  pageSize: {
    posts: { max: 12, default: 12 },
    reels: { max: 12, default: 12 },
    taggedPosts: { max: 50, default: 12 },
    followers: { max: 50, default: 50 },
    following: { max: 50, default: 50 },
  },
  friendshipsSearch: { min: 1, max: 100 },
  accountsSearch: { min: 1, max: 200, maxResults: 50 },
  storiesAccountRefs: { min: 1, max: 4 },
} as const;

export type PageSizeLimit = { readonly max: number; readonly default: number };

/** What the GraphQL projection of a field or type says beyond its shape (lens subgraph SDL). */
export interface GraphQLMeta {
  /** The GraphQL type name of an enum or of an input object made from an exclusive union. */
  name?: string;
  description?: string;
  /** Show the field's default in the SDL (otherwise the default is applied by the parse only). */
  showDefault?: boolean;
}

/** GraphQL texts, apart from the JSON Schema metadata (z.toJSONSchema reads only global meta). */
export const graphqlMeta = z.registry<GraphQLMeta>();

const characterCount = (s: string): number => [...s].length;

/** A string of `min` to `max` characters, with `pattern` when given; the JSON keywords follow. */
function text(min: number, max: number, pattern?: { regex: RegExp; message: string }) {
  const within = z
    .string()
    .refine(
      (s) => characterCount(s) >= min && characterCount(s) <= max,
      min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`,
    );
  const checked = pattern ? within.regex(pattern.regex, pattern.message) : within;
  return checked.meta(min === 0 ? { maxLength: max } : { minLength: min, maxLength: max });
}

const { handle: HANDLE_LIMIT, accountId: ACCOUNT_ID_LIMIT } = LENS_LIMITS;
const handleMessage = `handle must be ${HANDLE_LIMIT.min}-${HANDLE_LIMIT.max} letters, digits, dots or underscores`;
const accountIdMessage = `accountId must be 1-${ACCOUNT_ID_LIMIT.max} digits, the first 1-9`;
/** The characters of a handle (lens spec 2.2), as a regular-expression character class body. */
export const HANDLE_CHARACTERS = 'A-Za-z0-9._';
const HANDLE = new RegExp(`^[${HANDLE_CHARACTERS}]{${HANDLE_LIMIT.min},${HANDLE_LIMIT.max}}$`);
const ACCOUNT_ID = new RegExp(`^[1-9][0-9]{0,${ACCOUNT_ID_LIMIT.max - 1}}$`);

/**
 * AccountRef (lens spec 2.2): exactly one of the two forms, no other keys. A union of closed
 * objects with different keys, so at most one form can match (the document says oneOf); not
 * z.xor, whose errors would not name the bad handle or id.
 */
export const accountRef = z
  .union(
    [
      z.strictObject({
        handle: z
          .string()
          .min(HANDLE_LIMIT.min, handleMessage)
          .max(HANDLE_LIMIT.max, handleMessage)
          .regex(HANDLE, handleMessage)
          .meta({
            description: `${HANDLE_LIMIT.min} to ${HANDLE_LIMIT.max} letters, digits, dots and underscores.`,
          })
          .register(graphqlMeta, {
            description: `${HANDLE_LIMIT.min}-${HANDLE_LIMIT.max} letters, digits, dots, underscores`,
          }),
      }),
      z.strictObject({
        accountId: z
          .string()
          .min(1, accountIdMessage)
          .max(ACCOUNT_ID_LIMIT.max, accountIdMessage)
          .regex(ACCOUNT_ID, accountIdMessage)
          .meta({ description: `1 to ${ACCOUNT_ID_LIMIT.max} decimal digits, the first 1-9.` })
          .register(graphqlMeta, {
            description: `1-${ACCOUNT_ID_LIMIT.max} digits, first digit 1-9`,
          }),
      }),
    ],
    { error: 'accountRef must have exactly one of handle or accountId' },
  )
  .meta({ id: 'AccountRef', description: 'Exactly one of the two forms, no other keys.' })
  .register(graphqlMeta, {
    name: 'AccountRefInput',
    description: 'Exactly one of handle or accountId.',
  });

/** A nextCursor this API returned, or null (absent) for the first page. */
export function cursor(graphqlDescription: string) {
  return text(0, LENS_LIMITS.cursor.max)
    .nullable()
    .optional()
    .meta({
      description:
        'A nextCursor returned by the same operation for the same account and API key; absent or null for the first page.',
    })
    .register(graphqlMeta, { description: graphqlDescription });
}

/** An optional page size from 1 to `limit.max`; the operation applies `limit.default`. */
export function pageSize(limit: PageSizeLimit, graphqlDescription: string) {
  const error = `must be an integer from 1 to ${limit.max}`;
  return z
    .int({ error })
    .min(1, { error })
    .max(limit.max, { error })
    .optional()
    .meta({ default: limit.default, description: `Upper bound of the page, 1 to ${limit.max}.` })
    .register(graphqlMeta, { description: graphqlDescription });
}

/** A search text: `min` to `max` characters, at least one of them not a space. */
export function searchText(
  limit: { readonly min: number; readonly max: number },
  descriptions: { rest?: string; graphql: string },
) {
  return text(limit.min, limit.max, { regex: /\S/, message: 'must contain a non-space character' })
    .meta({
      description: descriptions.rest ?? `${limit.min} to ${limit.max} characters, not only spaces.`,
    })
    .register(graphqlMeta, { description: descriptions.graphql });
}

/**
 * L11: a search disables paging, so `cursor` (unless null, "first page") and `pageSize` are
 * refused beside `search`. zod checks it; JSON Schema cannot derive it from a refinement, so the
 * same rule is given to the document here, beside the check.
 */
export function searchDisablesPaging<T extends z.ZodObject>(object: T) {
  return object
    .superRefine((input, ctx) => {
      const given = input as { search?: unknown; cursor?: unknown; pageSize?: unknown };
      if (given.search === undefined) return;
      for (const field of ['cursor', 'pageSize'] as const) {
        if (given[field] !== undefined && given[field] !== null) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            message: 'not allowed with search (a search disables paging)',
          });
        }
      }
    })
    .meta({
      dependentSchemas: {
        search: {
          description: 'search disables paging: cursor and pageSize are not allowed with search',
          not: {
            anyOf: [
              { required: ['pageSize'] },
              { required: ['cursor'], properties: { cursor: { type: 'string' } } },
            ],
          },
        },
      },
    });
}
