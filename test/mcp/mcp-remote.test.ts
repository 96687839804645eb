import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@campaign/stack';
import { newAccount, type Account } from '../lens/account-support.js';
import { findBrowser, useBrowser, watchedPage } from '../support/browser.js';
import { stack } from '../support/clients.js';

/**
 * Issue 25: `mcp-remote`, the bridge many hosts use for remote servers, connects with nothing in
 * its configuration but the server's URL: it discovers the authorization server from the 401,
 * registers, prints the authorization URL, and the person approves in a (headless) browser.
 */

const browserFound = findBrowser();
const PROXY = join(repoRoot, 'test', 'node_modules', 'mcp-remote', 'dist', 'proxy.js');

describe.skipIf('skip' in browserFound)('mcp-remote with OAuth', () => {
  const chromium = useBrowser(browserFound);
  let account: Account;
  const configDir = mkdtempSync(join(tmpdir(), 'mcp-remote-'));

  beforeAll(async () => {
    account = await newAccount('--credits', '100');
  });

  afterAll(() => {
    rmSync(configDir, { recursive: true, force: true });
  });

  it('connects with no token configured once the person approves', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [PROXY, `${stack().rest}/mcp`, '--host', '127.0.0.1'],
      // Its own token store, and a "browser" that opens nothing: the test's Chromium does.
      env: {
        ...(process.env as Record<string, string>),
        MCP_REMOTE_CONFIG_DIR: configDir,
        BROWSER: 'true',
      },
      stderr: 'pipe',
    });
    let printed = '';
    const authorizeUrl = new Promise<string>((resolve) => {
      transport.stderr!.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const url = /Please authorize this client by visiting:\s+(\S+)/.exec(printed)?.[1];
        if (url) resolve(url);
      });
    });
    const client = new Client({ name: 'mcp-remote-test-host', version: '1.0.0' });
    const connected = client.connect(transport);
    try {
      const { page } = await watchedPage(chromium.browser);
      // mcp-remote exiting before it asks is a failure that shows what it printed.
      const exited = connected.then(
        () => Promise.reject(new Error(`connected without consent:\n${printed}`)),
        (error: unknown) => Promise.reject(new Error(`${String(error)}\n${printed}`)),
      );
      await page.goto(await Promise.race([authorizeUrl, exited]));
      await page.waitForSelector('#client-name');
      await page.type('input[name=credential]', account.restKey);
      await Promise.all([page.waitForNavigation(), page.click('button[value=approve]')]);
      await connected;
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('lens_accounts_profile');
    } finally {
      await client.close();
    }
    expect(printed).not.toContain(account.restKey);
  });
});
