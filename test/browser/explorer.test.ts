import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { findBrowser, screenshot, useWatchedPage } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { stack } from '../support/clients.js';

/**
 * Issue 15: the GraphQL explorer at the gateway's /graphql, opened in a real Chromium with no
 * network outside loopback, shows the schema's documentation, takes an Authorization header and
 * runs the preloaded example operation.
 */

const browserFound = findBrowser();

/** A CodeMirror 5 editor as GraphiQL 3 mounts it (the instance hangs on its element). */
interface EditorElement {
  CodeMirror: { getValue(): string; setValue(value: string): void };
}

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
/** The tab shown under the query: Headers (the variables editor is the hidden one). */
const HEADERS_EDITOR = '.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror';
const RESPONSE = '.graphiql-response .CodeMirror';

/** The text of the CodeMirror editor `selector` names. */
const editorText = (page: Page, selector: string) =>
  page.$eval(selector, (node) => (node as unknown as EditorElement).CodeMirror.getValue());

describe.skipIf('skip' in browserFound)('GraphQL explorer in a browser', () => {
  const opened = useWatchedPage(browserFound, () => stack().gateway);

  it('renders from the gateway alone, with the example operation and the Authorization header', async () => {
    await opened.page.waitForSelector(QUERY_EDITOR);
    expect(await opened.page.title()).toBe('GraphQL explorer · Campaign platform');
    expect(await editorText(opened.page, QUERY_EDITOR)).toContain('query RecentSettlements');
    expect(await editorText(opened.page, HEADERS_EDITOR)).toContain(
      '"Authorization": "Bearer <token',
    );
    expect(opened.problems.outside).toEqual([]);
    expect(opened.problems.failed).toEqual([]);
    expect(opened.problems.errors).toEqual([]);
  });

  it('shows the schema documentation read by introspection', async () => {
    await opened.page.click('button[aria-label="Show Documentation Explorer"]');
    // The root types, read from the gateway by introspection; then into Query, whose fields
    // carry the REST path each one serves.
    await opened.page.waitForSelector('.graphiql-doc-explorer ::-p-text(Mutation)');
    await opened.page.click('.graphiql-doc-explorer a.graphiql-doc-explorer-type-name');
    await opened.page.waitForSelector(
      '.graphiql-doc-explorer ::-p-text(GET /api/admin/settlements)',
    );
    await screenshot(opened.page, 'explorer-docs');
  });

  it('runs the example query with an admin token and shows the result', async () => {
    const token = await cli('auth:token', '--role', 'SUPER_ADMIN');
    await opened.page.$eval(
      HEADERS_EDITOR,
      (node, headers) => (node as unknown as EditorElement).CodeMirror.setValue(headers),
      JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2),
    );
    await opened.page.click('.graphiql-execute-button');
    await opened.page.waitForSelector('.graphiql-response ::-p-text("total")');
    const shown = JSON.parse(await editorText(opened.page, RESPONSE)) as {
      data?: { settlements: { total: number; items: { id: string }[] } };
      errors?: unknown[];
    };
    expect(shown.errors).toBeUndefined();
    // The demo data has settlements: the opened.page shows some, each with its SET<n> id.
    expect(shown.data!.settlements.total).toBeGreaterThan(0);
    expect(shown.data!.settlements.items[0]!.id).toMatch(/^SET\d+$/);
    const posts = opened.problems.responses.filter(
      (r) => r.method === 'POST' && r.url === stack().gateway,
    );
    expect(posts.at(-1)?.status).toBe(200);
    await screenshot(opened.page, 'explorer');
    expect(opened.problems.outside).toEqual([]);
    expect(opened.problems.failed).toEqual([]);
    expect(opened.problems.errors).toEqual([]);
  });
});
