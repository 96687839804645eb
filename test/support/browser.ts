import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll } from 'vitest';
import { repoRoot } from '@campaign/stack';

/**
 * A real headless Chromium for the browser tests (issue 15), with every request outside loopback
 * refused, as on a machine without internet access.
 */

/** Git-ignored; each browser test leaves a picture of what it saw. */
export const SCREENSHOTS = join(repoRoot, 'test', 'browser', 'screenshots');

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * CHROME_PATH, else Debian's `chromium`. A CHROME_PATH that names no file is a mistake, never a
 * skip. Without a browser the tests skip with the reason printed, except in CI (`CI` set), where
 * `.ci/run` installs one and a missing browser is a failure.
 */
export function findBrowser(): { path: string } | { skip: string } {
  const configured = process.env['CHROME_PATH'];
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROME_PATH=${configured}: no such file`);
    return { path: configured };
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM };
  const reason =
    'browser tests skipped: no Chromium found (set CHROME_PATH, or as root: ' +
    'apt-get install -y --no-install-recommends chromium)';
  if (process.env['CI']) throw new Error(reason.replace('skipped', 'cannot run in CI'));
  console.warn(`[test] ${reason}`);
  return { skip: reason };
}

export function launchBrowser(path: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath: path,
    headless: true,
    defaultViewport: { width: 1000, height: 700 },
    args: [
      // Tests run as root in containers, where Chromium's sandbox cannot start.
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      // Offline, below the page as well: no host name resolves except loopback.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
}

/** Everything that went wrong while a page was open; each list must stay empty. */
export interface PageProblems {
  /** Requests for anything outside loopback (a CDN, web fonts, analytics): refused. */
  outside: string[];
  /** Requests that failed or answered 4xx/5xx. */
  failed: string[];
  /** console.error messages and uncaught exceptions. */
  errors: string[];
  /** Every answer the page received, in order (to find one the test caused). */
  responses: { url: string; status: number; method: string }[];
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLocal(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:') return true;
  return LOCAL_HOSTS.has(parsed.hostname);
}

/** A new page whose requests outside loopback are refused and whose problems are recorded. */
export async function watchedPage(
  browser: Browser,
): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.newPage();
  const problems: PageProblems = { outside: [], failed: [], errors: [], responses: [] };
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (isLocal(request.url())) return void request.continue();
    problems.outside.push(request.url());
    void request.abort('blockedbyclient');
  });
  page.on('requestfailed', (request) => {
    if (isLocal(request.url()))
      problems.failed.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (response) => {
    const request = response.request();
    problems.responses.push({
      url: response.url(),
      status: response.status(),
      method: request.method(),
    });
    if (response.status() >= 400) problems.failed.push(`${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.errors.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(String(error)));
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) as `${string}.png` });
}

/**
 * For a describe block of a browser test: Chromium (when `found`), launched before its tests and
 * closed after them; `browser` is read in the tests.
 */
export function useBrowser(found: ReturnType<typeof findBrowser>): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if ('path' in found) browser = await launchBrowser(found.path);
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('the browser starts before the first test');
      return browser;
    },
  };
}

/**
 * For a describe block of a browser test: Chromium (when `found`) with one watched page opened at
 * `url()` before its tests and closed after them; `page` and `problems` are read in the tests.
 */
export function useWatchedPage(
  found: ReturnType<typeof findBrowser>,
  url: () => string,
): { readonly page: Page; readonly problems: PageProblems } {
  const chromium = useBrowser(found);
  let opened: { page: Page; problems: PageProblems } | undefined;
  beforeAll(async () => {
    if (!('path' in found)) return;
    opened = await watchedPage(chromium.browser);
    await opened.page.goto(url(), { waitUntil: 'networkidle0' });
  });
  const open = () => {
    if (!opened) throw new Error('the page opens before the first test');
    return opened;
  };
  return {
    get page() {
      return open().page;
    },
    get problems() {
      return open().problems;
    },
  };
}
