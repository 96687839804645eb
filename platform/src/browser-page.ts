/**
 * What the platform's browser pages (the gateway's explorer, the adapter's API reference) share:
 * each serves its own files and talks to its own origin only.
 */

/**
 * The page's own files only; the explorer's and the reference's widgets set inline styles, and
 * their fonts and icons are data: URLs. Requests go to this origin alone; no other may frame it.
 */
export const SELF_ONLY_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** JSON to embed in a `<script type="application/json">`: no `<` can close the element. */
export const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c');

/** One of a page's own files: its Content-Type and body. */
export interface PageAsset {
  type: string;
  body: Buffer | string;
}

const ASSET_TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
};

/** A page's files by name, each typed by its ending (.js, .css or .png). */
export function pageAssets(
  files: Readonly<Record<string, Buffer | string>>,
): Map<string, PageAsset> {
  return new Map(
    Object.entries(files).map(([name, body]) => {
      const type = ASSET_TYPES[name.slice(name.lastIndexOf('.') + 1)];
      if (!type) throw new Error(`no Content-Type for the page file ${name}`);
      return [name, { type, body }];
    }),
  );
}

/**
 * The HTML of a page that SELF_ONLY_PAGE_CSP allows: its stylesheets and scripts are its own files
 * under `assetPrefix`, its settings a JSON script element (no inline script), and `loading` shows
 * in the root element until the widget mounts.
 */
export function pageHtml(page: {
  title: string;
  /** The favicon's href, and its type where it is a file. */
  icon: { href: string; type?: string };
  assetPrefix: string;
  styles: readonly string[];
  root: { id: string; loading: string };
  config: { id: string; value: unknown };
  scripts: readonly string[];
}): string {
  const asset = (name: string) => `${page.assetPrefix}${name}`;
  const iconType = page.icon.type ? ` type="${page.icon.type}"` : '';
  const styles = page.styles.map((name) => `\n    <link rel="stylesheet" href="${asset(name)}" />`);
  const scripts = page.scripts.map((name) => `\n    <script src="${asset(name)}"></script>`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${page.title}</title>
    <link rel="icon"${iconType} href="${page.icon.href}" />${styles.join('')}
  </head>
  <body>
    <div id="${page.root.id}">${page.root.loading}</div>
    <script id="${page.config.id}" type="application/json">${scriptJson(page.config.value)}</script>${scripts.join('')}
  </body>
</html>
`;
}
