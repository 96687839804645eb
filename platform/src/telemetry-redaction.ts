/**
 * What a span may say about a request or a statement (issue 26): no secret, token, key or
 * personal data. Query values, path segments that look like tokens and SQL literals are
 * replaced; the shape (names, templates, placeholders) stays, which is what a trace needs.
 */

/** `from=2026-01-01&to=x` → `from=?&to=?`: the names of the parameters, never their values. */
export function redactedQuery(query: string): string {
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => `${pair.split('=')[0]}=?`)
    .join('&');
}

/**
 * A path segment this long, or with a digit run this long, is an id or a token (a webhook URL's
 * secret path, an account number): shown as `{redacted}`.
 */
const TOKEN_SEGMENT = /^[^/]{24,}$|\d{6,}/;

/** An outgoing URL as a span shows it: origin, path with token-like segments hidden, query names. */
export function redactedUrl(url: string): string {
  const [beforeQuery = '', query] = url.split('?', 2);
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(beforeQuery);
  const origin = match?.[1] ?? '';
  const path = (match?.[2] ?? beforeQuery)
    .split('/')
    .map((segment) => (TOKEN_SEGMENT.test(segment) ? '{redacted}' : segment))
    .join('/');
  // user:password@ in an origin is a credential too.
  const bareOrigin = origin.replace(/\/\/[^@/]*@/, '//');
  return `${bareOrigin}${path}${query === undefined ? '' : `?${redactedQuery(query)}`}`;
}

/**
 * SQL with its literals replaced by `?`: strings ('…', E'…', $tag$…$tag$) and numbers, but not
 * `$1` placeholders, identifiers or casts. For statements whose values were inlined before they
 * reached node-postgres (MikroORM's `execute`); parameterised statements are shown as they are.
 */
export function sanitizedSql(sql: string): string {
  return sql
    .replace(/\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g, '?')
    .replace(/[Ee]?'(?:[^']|'')*'/g, '?')
    .replace(/(?<![\w$.])-?\d+(?:\.\d+)?(?![\w])/g, '?');
}
