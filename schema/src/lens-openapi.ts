import { readFile } from 'node:fs/promises';

/**
 * The OpenAPI 3.1 document of the lens REST interface (`/api/lens/v1`), built here and committed
 * as `schema/openapi/lens.json` (`npm run compose` writes it; a test fails when it is stale). The
 * REST adapter serves it at `GET /api/lens/v1/openapi.json` and validates request bodies with its
 * schemas, so the published document is the one that validates.
 */

export const lensOpenApiFile = new URL('../openapi/lens.json', import.meta.url);

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });
const count: Schema = { type: ['number', 'null'], minimum: 0 };
const closed = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...extra,
});

export const CURSOR_MAX_LENGTH = 16384;

/** One documented operation: its name, path, GraphQL field and schemas. */
export interface LensOperationDoc {
  name: string;
  path: string;
  /** The OpenAPI operationId, also the GraphQL mutation field. */
  operationId: string;
  summary: string;
  request: string;
  data: string;
}

const operationTable: [name: string, operationId: string, data: string, summary: string][] = [
  [
    'accounts.profile',
    'accountsProfile',
    'AccountProfileData',
    'The account summary; with detail extended, more profile fields (no recent posts).',
  ],
  ['accounts.posts', 'accountsPosts', 'PostPage', 'A page of the account’s posts.'],
  ['accounts.reels', 'accountsReels', 'PostPage', 'A page of the account’s reels.'],
  [
    'accounts.taggedPosts',
    'accountsTaggedPosts',
    'PostPage',
    'A page of posts the account is tagged in.',
  ],
  [
    'accounts.followers',
    'accountsFollowers',
    'AccountPage',
    'A page of the account’s followers (a verified account’s may be a fixed sample); search disables paging.',
  ],
  [
    'accounts.following',
    'accountsFollowing',
    'AccountPage',
    'A page of the accounts this account follows; search disables paging.',
  ],
  [
    'accounts.guides',
    'accountsGuides',
    'GuidePage',
    'A page of the account’s guides. Legacy: availability is not guaranteed (503 FEATURE_UNAVAILABLE).',
  ],
  [
    'accounts.stories',
    'accountsStories',
    'StorySetList',
    'The current stories of 1 to 4 accounts, one story set each; no cursor.',
  ],
  ['accounts.highlights', 'accountsHighlights', 'HighlightList', 'The account’s story highlights.'],
  [
    'accounts.broadcast',
    'accountsBroadcast',
    'Broadcast',
    'The account’s current live broadcast (state offline when none).',
  ],
  ['accounts.related', 'accountsRelated', 'AccountList', 'Accounts related to this one.'],
  ['accounts.about', 'accountsAbout', 'About', 'Background information about the account.'],
  [
    'accounts.search',
    'accountsSearch',
    'AccountSearchResult',
    'Accounts matching a text, at most 50.',
  ],
];

export const lensOperationDocs: LensOperationDoc[] = operationTable.map(
  ([name, operationId, data, summary]) => ({
    name,
    path: `/${name.replace('.', '/')}`,
    operationId,
    summary,
    request: `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Request`,
    data,
  }),
);

const accountRef: Schema = {
  description: 'Exactly one of the two forms, no other keys.',
  oneOf: [
    closed({
      handle: {
        type: 'string',
        minLength: 1,
        maxLength: 30,
        pattern: '^[A-Za-z0-9._]{1,30}$',
        description: '1 to 30 letters, digits, dots and underscores.',
      },
    }),
    closed({
      accountId: {
        type: 'string',
        minLength: 1,
        maxLength: 30,
        pattern: '^[1-9][0-9]{0,29}$',
        description: '1 to 30 decimal digits, the first 1-9.',
      },
    }),
  ],
};

const cursor: Schema = {
  type: ['string', 'null'],
  maxLength: CURSOR_MAX_LENGTH,
  description:
    'A nextCursor returned by the same operation for the same account and API key; absent or null for the first page.',
};

const pageSize = (max: number, defaultValue: number): Schema => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  default: defaultValue,
  description: `Upper bound of the page, 1 to ${max}.`,
});

const searchText = (max: number): Schema => ({
  type: 'string',
  minLength: 1,
  maxLength: max,
  pattern: '\\S',
  description: `1 to ${max} characters, not only spaces.`,
});

/** A closed request body with the listed required fields. */
const body = (properties: Record<string, Schema>, required: string[], extra: Schema = {}) => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
  ...extra,
});

const friendshipsRequest = body(
  {
    accountRef: ref('AccountRef'),
    cursor,
    pageSize: pageSize(50, 50),
    search: { ...searchText(100), description: 'Filters the list; disables paging.' },
  },
  ['accountRef'],
  {
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
  },
);

const refOnly = body({ accountRef: ref('AccountRef') }, ['accountRef']);

const requests: Record<string, Schema> = {
  AccountsProfileRequest: body(
    {
      accountRef: ref('AccountRef'),
      detail: { type: 'string', enum: ['standard', 'extended'], default: 'standard' },
    },
    ['accountRef'],
  ),
  AccountsPostsRequest: body(
    { accountRef: ref('AccountRef'), cursor, pageSize: pageSize(12, 12) },
    ['accountRef'],
  ),
  AccountsReelsRequest: body(
    { accountRef: ref('AccountRef'), cursor, pageSize: pageSize(12, 12) },
    ['accountRef'],
  ),
  AccountsTaggedPostsRequest: body(
    { accountRef: ref('AccountRef'), cursor, pageSize: pageSize(50, 12) },
    ['accountRef'],
  ),
  AccountsFollowersRequest: friendshipsRequest,
  AccountsFollowingRequest: friendshipsRequest,
  AccountsGuidesRequest: body({ accountRef: ref('AccountRef'), cursor }, ['accountRef']),
  AccountsStoriesRequest: body(
    { accountRefs: { type: 'array', minItems: 1, maxItems: 4, items: ref('AccountRef') } },
    ['accountRefs'],
  ),
  AccountsHighlightsRequest: refOnly,
  AccountsBroadcastRequest: refOnly,
  AccountsRelatedRequest: refOnly,
  AccountsAboutRequest: refOnly,
  AccountsSearchRequest: body({ search: searchText(200) }, ['search']),
};

const summaryFields: Record<string, Schema> = {
  accountId: nullable('string'),
  handle: nullable('string'),
  displayName: nullable('string'),
  biography: nullable('string'),
  isPrivate: nullable('boolean'),
  isVerified: nullable('boolean'),
  followerCount: count,
  followingCount: count,
  postCount: count,
  category: nullable('string'),
};

const extendedFields: Record<string, Schema> = {
  externalUrl: nullable('string'),
  profilePictureUrl: nullable('string'),
  isBusinessAccount: nullable('boolean'),
  businessEmail: nullable('string'),
  businessPhone: nullable('string'),
  pronouns: { type: ['array', 'null'], items: { type: 'string' } },
  highlightCount: count,
  reelCount: count,
};

const completeness: Schema = {
  const: 'observedSample',
  description: 'The items are an observed sample, not a guaranteed full set.',
};
const nextCursor: Schema = {
  type: ['string', 'null'],
  maxLength: CURSOR_MAX_LENGTH,
  description: 'Send it as cursor for the next page; null on the last page.',
};
const page = (item: string): Schema =>
  closed({ items: { type: 'array', items: ref(item) }, nextCursor, completeness });
const list = (item: string, maxItems?: number): Schema =>
  closed({ items: { type: 'array', items: ref(item), ...(maxItems ? { maxItems } : {}) } });

const resources: Record<string, Schema> = {
  AccountRef: accountRef,
  AccountSummary: closed(summaryFields, { description: 'Lens spec 2.3.' }),
  ExtendedProfile: closed(
    { ...summaryFields, ...extendedFields },
    { description: 'The summary plus the fields detail=extended adds; no recent posts.' },
  ),
  AccountProfileData: { oneOf: [ref('AccountSummary'), ref('ExtendedProfile')] },
  Location: closed({
    placeId: nullable('string'),
    name: nullable('string'),
    city: nullable('string'),
    address: nullable('string'),
    latitude: nullable('number'),
    longitude: nullable('number'),
    postCount: count,
  }),
  CarouselItem: closed({
    postId: nullable('string'),
    format: { type: 'string', enum: ['image', 'video'] },
  }),
  Post: closed(
    {
      postId: nullable('string'),
      shortcode: nullable('string'),
      format: { type: 'string', enum: ['image', 'video', 'carousel'] },
      publishedAt: count,
      likeCount: count,
      commentCount: count,
      viewCount: count,
      durationSeconds: count,
      expiresAt: count,
      mentions: { type: 'array', items: ref('AccountSummary') },
      hashtags: { type: ['array', 'null'], items: { type: 'string' } },
      captionPreview: nullable('string'),
      owner: ref('AccountSummary'),
      location: { oneOf: [ref('Location'), { type: 'null' }] },
      isPaidPartnership: nullable('boolean'),
      sponsorAccounts: { type: 'array', items: ref('AccountSummary') },
      carousel: { type: 'array', items: ref('CarouselItem') },
    },
    { description: 'Lens spec 2.3a; also used for stories.' },
  ),
  Guide: closed({
    guideId: nullable('string'),
    title: nullable('string'),
    descriptionPreview: nullable('string'),
    owner: ref('AccountSummary'),
    posts: { type: 'array', items: ref('Post') },
  }),
  Highlight: closed({
    highlightId: nullable('string'),
    title: nullable('string'),
    itemCount: count,
    owner: ref('AccountSummary'),
    stories: { type: 'array', items: ref('Post') },
  }),
  StorySet: closed({
    account: ref('AccountSummary'),
    stories: { type: 'array', items: ref('Post') },
  }),
  Broadcast: closed({
    broadcastId: nullable('string'),
    state: {
      ...nullable('string'),
      description: 'live, interrupted, ended, or offline (no broadcast; the other fields null).',
    },
    startedAt: count,
    viewerCount: count,
    owner: ref('AccountSummary'),
  }),
  About: closed({
    accountId: nullable('string'),
    joinedAt: { ...nullable('string'), description: 'YYYY-MM' },
    country: nullable('string'),
    formerHandleCount: count,
    sharedFollowerAccountCount: count,
    verifiedAt: { ...nullable('string'), description: 'YYYY-MM' },
    isVerified: nullable('boolean'),
  }),
  PostPage: page('Post'),
  AccountPage: page('AccountSummary'),
  GuidePage: page('Guide'),
  StorySetList: list('StorySet', 4),
  HighlightList: list('Highlight'),
  AccountList: list('AccountSummary'),
  AccountSearchResult: list('AccountSummary', 50),
};

const errorObject: Schema = closed(
  {
    code: {
      type: 'string',
      pattern: '^[A-Z][A-Z0-9_]*$',
      description: 'A stable code of the error catalogue; read it together with the HTTP status.',
    },
    message: { type: 'string' },
    httpStatus: { type: 'integer', minimum: 400, maximum: 599 },
    retryable: { type: 'boolean' },
  },
  { description: 'Why the call failed.' },
);

/** The operation envelope of lens spec 2.1, its `data` shaped by `dataSchema`. */
function envelope(dataSchema: Schema, operationName?: string): Schema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['operationId', 'operationName', 'status', 'credits', 'replayed'],
    properties: {
      operationId: { type: 'string', format: 'uuid' },
      operationName: operationName ? { type: 'string', const: operationName } : { type: 'string' },
      status: {
        type: 'string',
        enum: ['RUNNING', 'SUCCEEDED', 'FAILED', 'RECONCILIATION_REQUIRED'],
      },
      data: { ...dataSchema, description: 'The result; present when SUCCEEDED.' },
      error: ref('Error'),
      credits: ref('Credits'),
      replayed: {
        type: 'boolean',
        description: 'True when an existing execution is returned again (same Idempotency-Key).',
      },
    },
  };
}

const success = (data: Schema): Schema =>
  closed({ success: { type: 'boolean', const: true }, data });

const envelopes: Record<string, Schema> = {
  Error: errorObject,
  Credits: closed({
    reserved: { type: 'integer', minimum: 0 },
    charged: { type: 'integer', minimum: 0 },
    refunded: { type: 'integer', minimum: 0 },
  }),
  Operation: envelope({ type: 'object' }),
  OperationResponse: success(ref('Operation')),
  ErrorResponse: {
    type: 'object',
    additionalProperties: false,
    required: ['success', 'error'],
    properties: {
      success: { type: 'boolean', const: false },
      error: ref('Error'),
      data: {
        ...ref('Operation'),
        description: 'The operation, when one exists (a failed execution).',
      },
    },
  },
  ...Object.fromEntries(
    lensOperationDocs.flatMap((op) => {
      const name = op.request.replace(/Request$/, '');
      return [
        [`${name}Operation`, envelope(ref(op.data), op.name)],
        [`${name}Response`, success(ref(`${name}Operation`))],
      ];
    }),
  ),
};

/** The error statuses of lens spec section 7, with the codes the platform answers for each. */
const errorResponses: Record<string, { status: string; description: string; codes: string[] }> = {
  BadRequest: {
    status: '400',
    description: 'Input error: fix the body or headers before sending again.',
    codes: ['INVALID_REQUEST', 'INVALID_CURSOR'],
  },
  Unauthorized: {
    status: '401',
    description: 'A valid API key is required (a tool-protocol token is refused).',
    codes: ['UNAUTHENTICATED', 'TOOL_TOKEN_NOT_ALLOWED'],
  },
  PaymentRequired: {
    status: '402',
    description: 'Insufficient credits for the reservation.',
    codes: ['INSUFFICIENT_CREDITS'],
  },
  Forbidden: {
    status: '403',
    description:
      'Permission or plan required, the operation is disabled, or the account is private.',
    codes: ['PERMISSION_DENIED', 'PLAN_REQUIRED', 'OPERATION_DISABLED', 'ACCOUNT_PRIVATE'],
  },
  NotFound: {
    status: '404',
    description: 'Data or execution not found.',
    codes: ['ACCOUNT_NOT_FOUND', 'OPERATION_NOT_FOUND', 'NOT_FOUND'],
  },
  Conflict: {
    status: '409',
    description: 'The Idempotency-Key was used with a different input.',
    codes: ['IDEMPOTENCY_KEY_REUSED'],
  },
  TooManyRequests: {
    status: '429',
    description: 'Request limit: wait Retry-After seconds.',
    codes: ['RATE_LIMITED', 'UPSTREAM_RATE_LIMITED'],
  },
  InternalError: {
    status: '500',
    description: 'Execution failed: check the status with the returned operation id.',
    codes: ['EXECUTION_FAILED', 'INTERNAL_ERROR'],
  },
  ServiceUnavailable: {
    status: '503',
    description: 'Temporarily unable to process; retryable.',
    codes: ['UPSTREAM_UNAVAILABLE', 'FEATURE_UNAVAILABLE', 'SERVICE_UNAVAILABLE'],
  },
};

const responseComponents = Object.fromEntries(
  Object.entries(errorResponses).map(([name, r]) => [
    name,
    {
      description: `${r.description} error.code: ${r.codes.join(', ')}.`,
      ...(r.status === '429'
        ? {
            headers: {
              'Retry-After': { $ref: '#/components/headers/RetryAfter' },
              'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
              RateLimit: { $ref: '#/components/headers/RateLimit' },
            },
          }
        : {}),
      content: { 'application/json': { schema: ref('ErrorResponse') } },
    },
  ]),
);

const errorRefs = (names: string[]) =>
  Object.fromEntries(
    names.map((name) => [errorResponses[name]!.status, { $ref: `#/components/responses/${name}` }]),
  );

const observedAtHeader = { 'Lens-Observed-At': { $ref: '#/components/headers/LensObservedAt' } };

function operationPath(op: LensOperationDoc) {
  const name = op.request.replace(/Request$/, '');
  const content = { 'application/json': { schema: ref(`${name}Response`) } };
  return {
    post: {
      operationId: op.operationId,
      summary: op.name,
      description: op.summary,
      tags: ['accounts'],
      deprecated: false,
      'x-operation-name': op.name,
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: ref(op.request) } },
      },
      responses: {
        '200': {
          description: 'Completed (or an existing execution): the envelope with data.',
          headers: observedAtHeader,
          content,
        },
        '202': {
          description: 'Still processing (RUNNING): poll GET /operations/{operationId}.',
          content,
        },
        ...errorRefs(Object.keys(errorResponses)),
      },
    },
  };
}

export function lensOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Account Data Lookup Service',
      version: '1.0.0',
      description:
        'Billed, idempotent look-ups of public social-media account data. Every call is an operation with an id, a status and credit accounting.',
    },
    servers: [
      {
        url: '{base_url}/api/lens/v1',
        variables: { base_url: { default: 'http://127.0.0.1:8080' } },
      },
    ],
    security: [{ LensKey: [] }],
    tags: [
      { name: 'accounts', description: 'Account data operations (billed).' },
      { name: 'operations', description: 'Operation status.' },
    ],
    paths: {
      ...Object.fromEntries(lensOperationDocs.map((op) => [op.path, operationPath(op)])),
      '/operations/{operationId}': {
        get: {
          operationId: 'operation',
          summary: 'Operation status',
          description:
            'The envelope of an operation of the caller’s tenant, whatever its status; 404 for any other id.',
          tags: ['operations'],
          deprecated: false,
          parameters: [
            { name: 'operationId', in: 'path', required: true, schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The operation envelope.',
              headers: observedAtHeader,
              content: { 'application/json': { schema: ref('OperationResponse') } },
            },
            ...errorRefs([
              'Unauthorized',
              'Forbidden',
              'NotFound',
              'TooManyRequests',
              'InternalError',
              'ServiceUnavailable',
            ]),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This OpenAPI document',
          tags: ['operations'],
          deprecated: false,
          security: [],
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of /api/lens/v1.',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        LensKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API_KEY>. Tool-protocol tokens are refused.',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description:
            'Identifies the request: a retry with the same key and input returns the existing execution (replayed true); a new request needs a new key.',
          schema: { type: 'string', minLength: 1, maxLength: 128 },
        },
      },
      headers: {
        LensObservedAt: {
          description: 'When the data was observed (ISO 8601).',
          schema: { type: 'string', format: 'date-time' },
        },
        RetryAfter: {
          description: 'Seconds to wait before retrying.',
          schema: { type: 'integer', minimum: 0 },
        },
        RateLimitPolicy: { description: 'The rate-limit policy.', schema: { type: 'string' } },
        RateLimit: { description: 'The current rate-limit state.', schema: { type: 'string' } },
      },
      responses: responseComponents,
      schemas: { ...requests, ...resources, ...envelopes },
    },
  };
}

/** The document as committed: two-space JSON with a final newline. */
export function lensOpenApiText(): string {
  return `${JSON.stringify(lensOpenApi(), null, 2)}\n`;
}

export function readLensOpenApi(): Promise<string> {
  return readFile(lensOpenApiFile, 'utf8');
}
