import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lensTools, STATUS_TOOL } from './tools.js';
import { USAGE_TOOL } from './usage-tool.js';

const doc = readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8');

/** The first column of the tool table of docs/mcp.md. */
function documentedTools(): string[] {
  const table = doc.slice(doc.indexOf('<!-- mcp-tool-table')).split('\n\n')[1]!;
  return table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|')[1]!.trim().replace(/`/g, ''));
}

describe('docs/mcp.md', () => {
  it('lists every tool, in the order tools/list shows them', () => {
    expect(documentedTools()).toEqual([...lensTools.keys(), STATUS_TOOL, USAGE_TOOL]);
  });
});
