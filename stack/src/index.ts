/** The orchestrator's public face: what tests, the benchmark and tools may use. */
export { startStack, type RunningStack, type StackUrls, type StackOptions } from './stack.js';
export { startEphemeralStack } from './ephemeral.js';
export { loadStackConfig, type StackConfig } from './config.js';
export {
  COMPILED_CONDITION,
  compiledPath,
  ensureCompiled,
  repoRoot,
  startService,
  type ServiceProcess,
} from './processes.js';
export { connectSql, type Sql } from './sql.js';
export { freePort, freeStackPorts, releasePorts } from './free-port.js';
export { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded-postgres.js';
export { dropDatabase, ensureDatabase, migrateAll } from './databases.js';
export { runCli, CliExit } from './cli-program.js';
export type { ReplicaSetOptions, ReplicaUrls } from './replicas.js';
