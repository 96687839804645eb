/**
 * One query over each of the gateway's GraphQL limits (depth, aliases, tokens, directives, cost),
 * keyed by the word the refusal names. Every query would reach lens (Partner.account) if it ran,
 * so a test can also show that a refused query calls no subgraph.
 */
export function overLimitQueries(): Record<
  'depth' | 'aliases' | 'tokens' | 'directives' | 'cost',
  string
> {
  const account = 'partner { account { handle } }';
  let deep = account;
  for (let i = 0; i < 25; i++) deep = `campaign { settlement { ${deep} } }`;
  const wide = (n: number, field: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => field(i)).join(' ');
  // Depth 10 and 29 aliases, both inside their limits; the cost (1.5 per level) is not.
  let chain = account;
  for (let i = 0; i < 4; i++) chain = `id status campaign { id status settlement { ${chain} } }`;
  return {
    depth: `{ settlement(id: "SET1") { ${deep} } }`,
    aliases: `{ ${wide(100, (i) => `a${i}: account(accountId: "1") { handle }`)} }`,
    tokens: `{ account(accountId: "1") { ${'handle '.repeat(10_000)} } }`,
    directives: `{ account(accountId: "1") { ${wide(25, (i) => `f${i}: handle @include(if: true)`)} } }`,
    cost: `{ ${wide(29, (i) => `s${i}: settlement(id: "SET1") { ${chain} }`)} }`,
  };
}
