import type { ElementHandle, Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { findBrowser, screenshot, useWatchedPage } from '../support/browser.js';
import { cli } from '../support/cli.js';
import { stack } from '../support/clients.js';

/**
 * Issue 15: the API reference at the adapter's /docs, opened in a real Chromium with no network
 * outside loopback, shows both OpenAPI documents, and "Try it out" gets a 200 from the adapter
 * that served the page (not from the documents' default server, 127.0.0.1:8080).
 */

const browserFound = findBrowser();

/** The operation block of `method path` as Swagger UI shows it (path as the document spells it). */
async function operation(page: Page, method: string, path: string): Promise<ElementHandle> {
  const summary = await page.waitForSelector(
    `.opblock-${method.toLowerCase()} .opblock-summary-path[data-path="${path}"]`,
  );
  return (await summary!.evaluateHandle((node) => node.closest('.opblock')!)) as ElementHandle;
}

/** Opens an operation, presses "Try it out" and "Execute", and returns the status shown. */
async function tryIt(block: ElementHandle): Promise<string> {
  await (await block.$('.opblock-summary-control'))!.click();
  await (await block.waitForSelector('.try-out__btn'))!.click();
  await (await block.waitForSelector('.execute'))!.click();
  const status = await block.waitForSelector(
    '.live-responses-table .response .response-col_status',
  );
  return (await status!.evaluate((node) => node.textContent ?? '')).trim();
}

describe.skipIf('skip' in browserFound)('API reference in a browser', () => {
  const opened = useWatchedPage(browserFound, () => `${stack().rest}/docs`);

  it('renders the admin, partner, public and webhook document from the adapter alone', async () => {
    await opened.page.waitForSelector('.swagger-ui .information-container .title');
    expect(await opened.page.title()).toBe('API reference · Campaign platform');
    const choices = await opened.page.$$eval('.topbar select option', (options) =>
      options.map((option) => option.textContent),
    );
    expect(choices).toEqual(['Admin, partner, public and webhook API', 'Lens API (v1)']);
    await operation(opened.page, 'GET', '/api/admin/settlements');
    await screenshot(opened.page, 'reference');
    expect(opened.problems.outside).toEqual([]);
    expect(opened.problems.failed).toEqual([]);
    expect(opened.problems.errors).toEqual([]);
  });

  it('sends "Try it out" with a bearer token to this adapter and shows its 200', async () => {
    const token = await cli('auth:token', '--role', 'SUPER_ADMIN');
    const block = await operation(opened.page, 'GET', '/api/admin/settlements');
    // The operation's padlock opens the authorisation form for its own scheme.
    await (await block.$('.authorization__btn'))!.click();
    const dialog = await opened.page.waitForSelector('.modal-ux');
    await (await dialog!.$('input[type=text]'))!.type(token);
    await (await dialog!.$('button.authorize'))!.click();
    await (await dialog!.$('button.close-modal'))!.click();
    expect(await tryIt(block)).toBe('200');
    const sent = opened.problems.responses.filter((r) => r.url.includes('/api/admin/settlements'));
    expect(sent.map((r) => [r.url.split('?')[0], r.status])).toEqual([
      [`${stack().rest}/api/admin/settlements`, 200],
    ]);
    await (await block.$('.live-responses-table'))!.evaluate((node) => node.scrollIntoView());
    await screenshot(opened.page, 'reference-try-it');
    expect(opened.problems.failed).toEqual([]);
    expect(opened.problems.errors).toEqual([]);
  });

  it('switches to the lens document and tries one of its paths', async () => {
    await opened.page.select('.topbar select', '/api/lens/v1/openapi.json');
    await opened.page.waitForSelector(
      '.information-container .title ::-p-text(Account Data Lookup)',
    );
    const block = await operation(opened.page, 'GET', '/openapi.json');
    expect(await tryIt(block)).toBe('200');
    const sent = opened.problems.responses.filter(
      (r) => r.url === `${stack().rest}/api/lens/v1/openapi.json`,
    );
    // Loading the document when it was chosen, then "Try it out".
    expect(sent.map((r) => r.status)).toEqual([200, 200]);
    await opened.page.evaluate('window.scrollTo(0, 0)');
    await screenshot(opened.page, 'reference-lens');
    expect(opened.problems.outside).toEqual([]);
    expect(opened.problems.failed).toEqual([]);
    expect(opened.problems.errors).toEqual([]);
  });
});
