import { LENS_LIMITS } from './lens-input.js';
import { lensOperationList, typeName } from './lens-operations.js';

/** The lens OpenAPI document's component schemas besides the requests: results, envelopes. */

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (type: string, extra: Schema = {}): Schema => ({
  type: [type, 'null'],
  ...extra,
});
const count: Schema = { type: ['number', 'null'], minimum: 0 };
/** An object with exactly these properties, all required. */
export const closed = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
  ...extra,
});

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
  maxLength: LENS_LIMITS.cursor.max,
  description: 'Send it as cursor for the next page; null on the last page.',
};
const page = (item: string): Schema =>
  closed({ items: { type: 'array', items: ref(item) }, nextCursor, completeness });
const list = (item: string, maxItems?: number): Schema =>
  closed({ items: { type: 'array', items: ref(item), ...(maxItems ? { maxItems } : {}) } });

/** The result shapes of lens spec sections 2.3-2.10 and 4 (`data` of a SUCCEEDED envelope). */
export const resultSchemas: Record<string, Schema> = {
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
  StorySetList: list('StorySet', LENS_LIMITS.storiesAccountRefs.max),
  HighlightList: list('Highlight'),
  AccountList: list('AccountSummary'),
  AccountSearchResult: list('AccountSummary', LENS_LIMITS.accountsSearch.maxResults),
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

/** The envelope of lens spec 2.1 and the error body, generic and per operation. */
export const envelopeSchemas: Record<string, Schema> = {
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
    lensOperationList.flatMap((op) => [
      [typeName(op, 'Operation'), envelope(ref(op.result), op.name)],
      [typeName(op, 'Response'), success(ref(typeName(op, 'Operation')))],
    ]),
  ),
};
