import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

/**
 * Who may import whom in the settlement subgraph (docs/architecture.md): api → flows → domain →
 * journal → kernel, with outside/ (the ports to outside systems and their adapters) beside them.
 * The files at the top (server, schema, services: the composition root) may import anything and
 * nothing imports them. Type imports count too. journal/ may reach outside/ as well: the outbox's
 * channel handlers (journal/outbox/) deliver through the outside systems' ports; the delivery
 * itself is the platform's (platform/src/outbox/).
 */
const SETTLEMENT = './subgraphs/settlement/src';
const mayImport = {
  api: ['flows', 'domain', 'journal', 'kernel', 'outside'],
  flows: ['domain', 'journal', 'kernel', 'outside'],
  domain: ['journal', 'kernel'],
  journal: ['kernel', 'outside'],
  kernel: [],
  outside: ['kernel'],
};
const settlementParts = Object.keys(mayImport);
const layerZones = Object.entries(mayImport).map(([layer, allowed]) => ({
  target: `${SETTLEMENT}/${layer}`,
  from: [
    `${SETTLEMENT}/*.ts`,
    ...settlementParts
      .filter((part) => part !== layer && !allowed.includes(part))
      .map((part) => `${SETTLEMENT}/${part}/**`),
  ],
  message: `settlement ${layer}/ may import ${allowed.join(', ') || 'no other layer'} (docs/architecture.md).`,
}));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'bench/results/**',
      'test/browser/screenshots/**',
      '.data/**',
      'schema/*.graphql',
      '**/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // A type assertion to `never` silences every check on a value (issue 22): type it instead.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAsExpression > TSNeverKeyword',
          message: 'No `as never`: give the value its type (OptionalProps, FilterQuery, ...).',
        },
      ],
      // Configuration is read once per service, in its config.ts.
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in the service config.ts.',
        },
      ],
    },
  },
  {
    // The layers of the settlement subgraph; a test beside its code may reach further up.
    files: [`${SETTLEMENT.slice(2)}/**/*.ts`],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: layerZones }] },
  },
  {
    // Apollo Server (about 5 MB of a process, issue 27) is loaded only by the services that run
    // it: the subgraphs and the standalone gateway, through @campaign/platform/graphql-server.
    // The platform's index and the REST adapter's embedded gateway import none of it.
    files: [
      'platform/src/**/*.ts',
      'rest-adapter/src/**/*.ts',
      'gateway/src/apollo-federation.ts',
      'gateway/src/apollo-trusted.ts',
      'gateway/src/embedded.ts',
    ],
    ignores: ['**/*.test.ts', 'platform/src/graphql-server.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        ...['@apollo/server', './graphql-server.js', './apollo-engine.js'].map((name) => ({
          name,
          allowTypeImports: true,
          message: 'Apollo Server: only its services load it (@campaign/platform/graphql-server).',
        })),
        {
          name: '@campaign/platform/graphql-server',
          message: 'Apollo Server: only the subgraphs and the standalone gateway load it.',
        },
        { name: '@as-integrations/fastify', message: 'Apollo Server: see graphql-server.ts.' },
      ],
    },
  },
  {
    files: ['**/config.ts', '**/*.test.ts', 'test/**', 'bench/**', 'stack/src/**'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
