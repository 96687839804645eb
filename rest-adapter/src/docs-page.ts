import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SELF_ONLY_PAGE_CSP, scriptJson } from '@campaign/platform';

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

interface Asset {
  type: string;
  body: Buffer | string;
}

function loadAssets(): Map<string, Asset> {
  const js = 'text/javascript; charset=utf-8';
  const css = 'text/css; charset=utf-8';
  return new Map<string, Asset>([
    ['swagger-ui.css', { type: css, body: readFileSync(distFile('swagger-ui.css')) }],
    ['swagger-ui-bundle.js', { type: js, body: readFileSync(distFile('swagger-ui-bundle.js')) }],
    [
      'swagger-ui-standalone-preset.js',
      { type: js, body: readFileSync(distFile('swagger-ui-standalone-preset.js')) },
    ],
    ['favicon-32x32.png', { type: 'image/png', body: readFileSync(distFile('favicon-32x32.png')) }],
    ['start.js', { type: js, body: START_SCRIPT }],
    ['page.css', { type: css, body: 'body { margin: 0; }\n' }],
  ]);
}

/** JSON inside a <script> element: `<` escaped so no value can close the element. */

function page(): string {
  const asset = (name: string) => `${ASSET_PREFIX}${name}`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Campaign platform</title>
    <link rel="icon" type="image/png" href="${asset('favicon-32x32.png')}" />
    <link rel="stylesheet" href="${asset('swagger-ui.css')}" />
    <link rel="stylesheet" href="${asset('page.css')}" />
  </head>
  <body>
    <div id="swagger-ui">Loading the API reference…</div>
    <script id="reference-config" type="application/json">${scriptJson({ documents: REFERENCE_DOCUMENTS })}</script>
    <script src="${asset('swagger-ui-bundle.js')}"></script>
    <script src="${asset('swagger-ui-standalone-preset.js')}"></script>
    <script src="${asset('start.js')}"></script>
  </body>
</html>
`;
}

/** GET /docs and its files under /docs/assets/; public, like the documents it shows. */
export function registerReferencePage(app: FastifyInstance): void {
  const assets = loadAssets();
  const html = page();
  app.get(PAGE_PATH, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', SELF_ONLY_PAGE_CSP)
      .header('x-frame-options', 'DENY')
      .send(html),
  );
  app.get<{ Params: { file: string } }>(`${ASSET_PREFIX}:file`, async (request, reply) => {
    const asset = assets.get(request.params.file);
    if (!asset) return reply.callNotFound();
    // The package's files carry no data: a browser may keep them for a day.
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
