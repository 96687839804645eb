import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@campaign/stack';
import { cli } from '../support/cli.js';
import { stack } from '../support/clients.js';
import { adminToken } from './support.js';
import { untilInvoice } from './tax-invoice-support.js';

/**
 * Issue 23 item 7: the README's settlement blocks, pasted in order into one shell as a reader
 * would (variables carry from block to block), against the test stack's demo data. Only the
 * addresses change (the test stack listens on free ports, not the documented ones); every answer
 * must be a success, and the partner's request of SET1 must show its approval URL.
 */
const run = promisify(execFile);
const FIRST = '### A REST call (settlement)';
const LAST = '### In a browser';

/** The `sh` blocks of the README between the two headings, in order. */
async function settlementBlocks(): Promise<string[]> {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const part = readme.slice(readme.indexOf(FIRST), readme.indexOf(LAST));
  return [...part.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

/** The documented addresses, as the test stack serves them. */
function onTestStack(block: string): string {
  const s = stack();
  return block
    .replaceAll('http://127.0.0.1:4000/graphql', s.gateway)
    .replaceAll('http://127.0.0.1:8080', s.rest)
    .replaceAll('http://127.0.0.1:4105', s.mailSink ?? '')
    .replaceAll('http://127.0.0.1:4102', s.chat ?? '')
    .replaceAll('http://127.0.0.1:4103', s.taxInvoice);
}

describe('README settlement blocks', () => {
  it('work pasted in order: every answer a success, SET1’s request with its approval URL', async () => {
    // A reader pastes minutes after `npm start`; the test runs seconds after the stack seeded:
    // SET2's seeded tax invoice is decided first, or its webhook could claim SET2 while the
    // reader's status change does (a retryable 409 CONCURRENT_MODIFICATION, not a README fault).
    await untilInvoice(await adminToken(), 'SET2', 'SUCCESS');
    const blocks = await settlementBlocks();
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    const folder = await mkdtemp(join(tmpdir(), 'readme-blocks-'));
    // A reader's curl comes from a machine of its own: here a loopback address no other test
    // calls from (curl's own config file, so the blocks stay as written). From 127.0.0.1 the
    // public business check shares its per-address limit with the tests that exhaust it.
    await writeFile(join(folder, '.curlrc'), 'interface = 127.0.0.23\n');
    // The lens block earlier in the README set KEY; `npm` runs the repository's scripts from the
    // reader's folder (the quotation block downloads its workbook there).
    const script = [
      'set -euo pipefail',
      `npm() { command npm --prefix "${repoRoot}" "$@"; }`,
      `KEY='${await cli('lens:create-key', '--credits', '10')}'`,
      ...blocks.flatMap((block, i) => [`echo '@@block ${i}@@'`, onTestStack(block), 'echo']),
    ].join('\n');
    try {
      const { stdout } = await run('bash', ['-c', script], {
        cwd: folder,
        env: {
          ...process.env,
          CURL_HOME: folder,
          LENS_DATABASE_URL: stack().lensDatabase,
          SETTLEMENT_DATABASE_URL: stack().settlementDatabase,
        },
        maxBuffer: 64 * 1024 * 1024,
      });
      const outputs = stdout.split(/@@block \d+@@\n/).slice(1);
      expect(outputs).toHaveLength(blocks.length);
      for (const [i, output] of outputs.entries()) {
        expect(output, `block ${i}:\n${blocks[i]}`).not.toMatch(/"success":\s*false|"errors":/);
      }
      const request = outputs.find((_, i) => blocks[i]!.includes('/SET1/request'))!;
      expect(request).toMatch(/"grantUrl":"http/);
      expect(stdout).toMatch(/QUO\d+-Summer-glow\.xlsx/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
