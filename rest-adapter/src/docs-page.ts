import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pageAssets, pageHtml, SELF_ONLY_PAGE_CSP, type PageAsset } from '@campaign/platform';

/**
 * The API reference at GET /docs (issue 15): Swagger UI over both OpenAPI documents, with a
 * selector between them and "Try it out" against this adapter. Every file comes from the
 * swagger-ui-dist package through this adapter, so the page works on a machine without internet;
 * Swagger UI's online validator badge is turned off (it would call validator.swagger.io).
 */

const PAGE_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';

/** The documents, in the selector's order; the first is shown first. */
export const REFERENCE_DOCUMENTS = [
  { url: '/api/openapi.json', name: 'Admin, partner, public and webhook API' },
  { url: '/api/lens/v1/openapi.json', name: 'Lens API (v1)' },
] as const;

const requireHere = createRequire(import.meta.url);
const distFile = (file: string) =>
  join(dirname(requireHere.resolve('swagger-ui-dist/package.json')), file);

/**
 * Starts Swagger UI; a file of its own, so the page needs no inline script. "Try it out" sends
 * to the server the served documents name: the adapter they were fetched from (issue 21).
 */
const START_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('reference-config').textContent);
  window.ui = SwaggerUIBundle({
    urls: config.documents,
    'urls.primaryName': config.documents[0].name,
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    deepLinking: true,
    validatorUrl: null,
    displayRequestDuration: true,
  });
})();
`;

function loadAssets(): Map<string, PageAsset> {
  return pageAssets({
    'swagger-ui.css': readFileSync(distFile('swagger-ui.css')),
    'swagger-ui-bundle.js': readFileSync(distFile('swagger-ui-bundle.js')),
    'swagger-ui-standalone-preset.js': readFileSync(distFile('swagger-ui-standalone-preset.js')),
    'favicon-32x32.png': readFileSync(distFile('favicon-32x32.png')),
    'start.js': START_SCRIPT,
    'page.css': 'body { margin: 0; }\n',
  });
}

function page(): string {
  return pageHtml({
    title: 'API reference · Campaign platform',
    icon: { href: `${ASSET_PREFIX}favicon-32x32.png`, type: 'image/png' },
    assetPrefix: ASSET_PREFIX,
    styles: ['swagger-ui.css', 'page.css'],
    root: { id: 'swagger-ui', loading: 'Loading the API reference…' },
    config: { id: 'reference-config', value: { documents: REFERENCE_DOCUMENTS } },
    scripts: ['swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'start.js'],
  });
}

/** GET /docs and its files under /docs/assets/; public, like the documents it shows. */
export function registerReferencePage(app: FastifyInstance): void {
  // Read on the first request for a file, not at start: megabytes no idle process needs (issue 27).
  let assets: Map<string, PageAsset> | undefined;
  const html = page();
  app.get(PAGE_PATH, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', SELF_ONLY_PAGE_CSP)
      .header('x-frame-options', 'DENY')
      .send(html),
  );
  app.get<{ Params: { file: string } }>(`${ASSET_PREFIX}:file`, async (request, reply) => {
    const asset = (assets ??= loadAssets()).get(request.params.file);
    if (!asset) return reply.callNotFound();
    // The package's files carry no data: a browser may keep them for a day.
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
