import { type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { APPLICATION_JSON, SUBGRAPH_SECRET_HEADER } from '@campaign/platform';
import type { GatewayConfig } from './config.js';
import { noteReplay, type ReplayContext } from './idempotency.js';
import { RecordHeaders } from './subgraph-headers.js';
import { FORWARDED_HEADERS } from './subgraphs.js';

type Options = GraphQLDataSourceProcessOptions<ReplayContext>;
type Base = RemoteGraphQLDataSource<ReplayContext>;
type GatewayGraphQLResponse = Awaited<ReturnType<Base['process']>>;

/** What each subgraph request carries besides the data source's own content type. */
function addOurHeaders(
  headers: RecordHeaders,
  context: Partial<ReplayContext>,
  config: GatewayConfig,
) {
  headers.set(SUBGRAPH_SECRET_HEADER, config.SUBGRAPH_SECRET);
  // A subgraph's request error (a SafeInt out of range, a Decimal that is not one) then comes
  // back as 200 with its errors, which the gateway passes on with their code; a 400 would reach
  // the data source as a failed fetch and the caller as INTERNAL_ERROR.
  headers.set('accept', APPLICATION_JSON);
  for (const header of FORWARDED_HEADERS) {
    const value = context.headers?.[header];
    if (value) headers.set(header, value);
  }
}

/** Subgraph query texts kept with their JSON form: the plans' fetches send a few fixed texts. */
const QUERY_JSON_KEPT = 512;
const queryJson = new Map<string, string>();

/**
 * `JSON.stringify({ query, ...rest })`, byte for byte, with the query's escaping done once per
 * text (issue 27): an object's JSON is `{`, its members joined by commas, `}`.
 */
function requestBody(query: string, rest: object): string {
  let prefix = queryJson.get(query);
  if (prefix === undefined) {
    prefix = `{"query":${JSON.stringify(query)}`;
    if (queryJson.size < QUERY_JSON_KEPT) queryJson.set(query, prefix);
  }
  const members = JSON.stringify(rest);
  return members === '{}' ? `${prefix}}` : `${prefix},${members.slice(1)}`;
}

/**
 * Apollo's data source with the subgraph secret and the forwarded headers, and (issue 27, third
 * pass) a leaner path for an operation whose caller keeps no cache policy (the trusted-document
 * executor, apollo-trusted.ts): Apollo's `process` builds node-fetch Headers, then a node-fetch
 * `Request` it only hands to `parseBody` and `didEncounterError` (neither reads it here), 5 % of
 * the REST adapter's CPU. This path sends the same bytes (the same header record, the same JSON
 * body in the same key order) to the same fetcher and answers what Apollo's would: the parsed
 * body with `http`, `errorFromResponse` for a status outside 2xx, the same error for a body that
 * is not an object. Apollo Server's requests (their cache policy is restricted by the subgraphs'
 * Cache-Control) and the gateway's own (health checks) take Apollo's path unchanged.
 */
export class SubgraphDataSource extends RemoteGraphQLDataSource<ReplayContext> {
  constructor(
    url: string,
    fetcher: RemoteGraphQLDataSource['fetcher'],
    private readonly config: GatewayConfig,
  ) {
    super({ url, fetcher });
  }

  override willSendRequest({ request, context }: Options): void {
    if (!request.http) return;
    // The data source's own headers (its content type), then ours, as a record: iterating
    // node-fetch's Headers re-sorts them at each step (subgraph-headers.ts).
    const headers = new RecordHeaders(request.http.headers);
    addOurHeaders(headers, context, this.config);
    request.http = { method: request.http.method, url: request.http.url, headers };
  }

  override didReceiveResponse({
    response,
    context,
  }: {
    response: GatewayGraphQLResponse;
    context: ReplayContext;
  }) {
    noteReplay(context, response.http?.headers);
    return response;
  }

  override async process(options: Options): Promise<GatewayGraphQLResponse> {
    // Only an incoming operation has a request context (health checks and schema loads do not).
    if (
      !('incomingRequestContext' in options) ||
      options.incomingRequestContext.overallCachePolicy ||
      this.apq
    )
      return super.process(options);
    const { request, context } = options;
    // Apollo's order: the request's own headers, its content type, then ours.
    const headers = new RecordHeaders(request.http?.headers);
    headers.set('content-type', 'application/json');
    addOurHeaders(headers, context, this.config);
    const { query, http: _http, ...rest } = request;
    if (!query) throw new Error('Missing query');
    const response = await this.fetcher(this.url, {
      method: 'POST',
      headers: headers.record,
      body: requestBody(query, rest),
    });
    if (!response.ok) throw await this.errorFromResponse(response);
    const body = await this.parseBody(response);
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new Error(`Expected JSON response body, but received: ${String(body)}`);
    // The parsed body is this call's own object: `http` joins it as Apollo's spread would add it.
    (body as Record<string, unknown>)['http'] = response;
    return this.didReceiveResponse({ response: body as GatewayGraphQLResponse, context });
  }
}
