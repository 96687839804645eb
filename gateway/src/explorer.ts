import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pageAssets, pageHtml, SELF_ONLY_PAGE_CSP, type PageAsset } from '@campaign/platform';

/**
 * The GraphQL explorer (GraphiQL 3) at GET /graphql for a browser (issue 15). Apollo Server's
 * landing page loads Apollo Sandbox from a CDN and shows nothing on a machine without internet;
 * this page is served whole by the gateway: GraphiQL's UMD build and React 18's UMD files come
 * from our npm dependencies, its fonts are inlined in its stylesheet. GraphiQL 5 ships no UMD
 * build, hence version 3 (see docs/decisions.md).
 */

const ENDPOINT = '/graphql';
const ASSET_PREFIX = '/explorer/';

const requireHere = createRequire(import.meta.url);
const packageFile = (name: string, file: string) =>
  join(dirname(requireHere.resolve(`${name}/package.json`)), file);

/** The example a new user sees first: how to get a token, where to put it, a query to run. */
export const EXAMPLE_OPERATION = `# The campaign platform's GraphQL API (works offline).
# 1. A token: npm run cli -- auth:token --role SUPER_ADMIN
# 2. Headers (below): {"Authorization": "Bearer <token>"}
# 3. Run: the ▶ button or Ctrl-Enter.
# Docs: the book icon on the left.

query RecentSettlements {
  settlements(limit: 5) {
    total
    items {
      id
      status
      campaignPrice
      settlementAmount
      partner {
        name
      }
    }
  }
}
`;

export const EXAMPLE_HEADERS = `{
  "Authorization": "Bearer <token from: npm run cli -- auth:token --role SUPER_ADMIN>"
}`;

/** Starts GraphiQL with the settings above; a file of its own, so the page needs no inline script. */
const START_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('explorer-config').textContent);
  var fetcher = GraphiQL.createFetcher({ url: window.location.origin + config.endpoint });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: config.query,
      defaultHeaders: config.headers,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
`;

const PAGE_CSS = `html, body, #graphiql { height: 100%; margin: 0; }
body { font-family: system-ui, sans-serif; }
`;

function loadAssets(): Map<string, PageAsset> {
  return pageAssets({
    'react.js': readFileSync(packageFile('react', 'umd/react.production.min.js')),
    'react-dom.js': readFileSync(packageFile('react-dom', 'umd/react-dom.production.min.js')),
    'graphiql.js': readFileSync(packageFile('graphiql', 'dist/index.umd.js')),
    'graphiql.css': readFileSync(packageFile('graphiql', 'dist/style.css')),
    'start.js': START_SCRIPT,
    'page.css': PAGE_CSS,
  });
}

function page(): string {
  return pageHtml({
    title: 'GraphQL explorer · Campaign platform',
    icon: { href: 'data:,' },
    assetPrefix: ASSET_PREFIX,
    styles: ['graphiql.css', 'page.css'],
    root: { id: 'graphiql', loading: 'Loading the explorer…' },
    config: {
      id: 'explorer-config',
      value: { endpoint: ENDPOINT, query: EXAMPLE_OPERATION, headers: EXAMPLE_HEADERS },
    },
    scripts: ['react.js', 'react-dom.js', 'graphiql.js', 'start.js'],
  });
}

/** A browser navigating to /graphql (Apollo's landing-page rule: wants HTML, sends no query). */
function isBrowserVisit(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const [path, search = ''] = request.url.split('?');
  if (path !== ENDPOINT || new URLSearchParams(search).has('query')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

/**
 * Serves the explorer page at GET /graphql (for browsers) and its files under /explorer/.
 * Register after the gateway's own onSend hook: the page and its files set their own
 * Content-Security-Policy and caching here.
 */
export function registerExplorer(app: FastifyInstance): void {
  // Read on the first request for a file, not at start: megabytes no idle process needs (issue 27).
  let assets: Map<string, PageAsset> | undefined;
  const html = page();
  app.addHook('onRequest', async (request, reply) => {
    if (!isBrowserVisit(request)) return;
    return reply.type('text/html; charset=utf-8').send(html);
  });
  app.get<{ Params: { file: string } }>(`${ASSET_PREFIX}:file`, async (request, reply) => {
    const asset = (assets ??= loadAssets()).get(request.params.file);
    if (!asset) return reply.code(404).send({ error: 'no such explorer file' });
    return reply.type(asset.type).send(asset.body);
  });
  app.addHook('onSend', async (request, reply) => {
    if (isBrowserVisit(request)) reply.header('content-security-policy', SELF_ONLY_PAGE_CSP);
    else if (request.url.startsWith(ASSET_PREFIX) && reply.statusCode === 200)
      // The packages' files carry no data: a browser may keep them for a day.
      reply.header('cache-control', 'public, max-age=86400');
  });
}
