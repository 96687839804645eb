import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Resolves `@campaign/*` packages to their compiled `dist/index.js` (each package's exports). */
export const COMPILED_CONDITION = 'campaign-compiled';

let built = false;
/**
 * Services run as compiled JavaScript: no TypeScript loader (about 125 MB per process) and no
 * source maps (every Error stack would be mapped). `scripts/build.mjs` compiles src/ to dist/
 * with SWC when the sources changed since the last build (a fingerprint; about 0.1 s when not).
 */
export function ensureCompiled(): void {
  if (built) return;
  execFileSync(process.execPath, [`${repoRoot}scripts/build.mjs`, '--quiet'], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  built = true;
}

/**
 * Extra node flags for every service, from SERVICE_NODE_ARGS (`npm run bench -- --profile` sets
 * `--cpu-prof`, which NODE_OPTIONS does not accept).
 */
const serviceNodeArgs = () => (process.env['SERVICE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

/**
 * V8's young generation at most 2 × 4 MB (Node 20's default: 2 × 16 MB): each service's idle RSS
 * falls by about 20 MB, since the semi-spaces grown while the service loads its modules stay
 * committed (issue 27; measured against 2, 8 and 16 MB, CPU and RSS together: docs/benchmarks.md).
 * SERVICE_NODE_ARGS comes after it and may set another size.
 */
export const SERVICE_V8_FLAGS = ['--max-semi-space-size=4'];

/**
 * glibc's malloc at most 2 arenas (its default: 8 per core, one per thread that allocates): V8's
 * GC and compiler threads and libuv's pool each kept an arena of their own, 6-8 MB of each
 * service's idle RSS (issue 27, docs/benchmarks.md "Issue 27: idle memory, second pass"). The
 * environment of the stack's caller comes after it and may set another value.
 *
 * And a fixed mmap threshold of 128 KiB (glibc's starting value): left dynamic, glibc raises it
 * to the size of each large block freed (up to 32 MiB), so the buffers of the settlement
 * subgraph's start and first requests afterwards came from the main heap, and that heap stayed
 * fragmented at 18-19 MB when idle (8 MB with the fixed threshold; the settlement subgraph's idle
 * RSS 141 → 133 MB, median of 3 starts; issue 27, docs/benchmarks.md "Issue 27: settlement's
 * idle memory"). A block of 128 KiB or more costs an mmap and munmap (a few µs).
 */
export const SERVICE_ENV: Record<string, string> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** `subgraphs/lens/src/main.ts` → `subgraphs/lens/dist/main.js`. */
export const compiledPath = (main: string) =>
  main.replace(/(^|\/)src\//, '$1dist/').replace(/\.ts$/, '.js');

/**
 * Where a service's stdout and stderr go: this process's, nowhere, or appended to a file (the
 * faults stack keeps its services' logs there, so a failing test can show the lines of a request
 * id without flooding every run's output).
 */
export type ServiceOutput = 'inherit' | 'ignore' | { file: string };

export interface ServiceSpec {
  name: string;
  /** Path of the service's main.ts, relative to the repository root. */
  main: string;
  env: Record<string, string>;
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts a service as a child process with an IPC channel: the child reports `ready`, and exits
 * by itself if this process dies (the channel closes), so no service is ever orphaned.
 */
export function startService(spec: ServiceSpec, output: ServiceOutput): Promise<ServiceProcess> {
  ensureCompiled();
  const to = typeof output === 'object' ? openSync(output.file, 'a') : output;
  const child = fork(`${repoRoot}${compiledPath(spec.main)}`, [], {
    cwd: repoRoot,
    env: { ...SERVICE_ENV, ...process.env, ...spec.env },
    execArgv: [`--conditions=${COMPILED_CONDITION}`, ...SERVICE_V8_FLAGS, ...serviceNodeArgs()],
    stdio: ['ignore', to, to, 'ipc'],
  });
  // The child has its own copy of the descriptor.
  if (typeof to === 'number') closeSync(to);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`${spec.name} exited during start (code ${code})`));
    child.once('exit', onExit);
    child.on('message', (message: { type?: string }) => {
      if (message?.type !== 'ready') return;
      child.off('exit', onExit);
      resolve({ name: spec.name, child, stop });
    });
  });
}

/** A service the orchestrator keeps running: restarted with a back-off when it dies. */
export interface SupervisedService {
  name: string;
  /** The pid of the current process (tests kill it to see the restart). */
  pid(): number | undefined;
  /** How many times it was restarted. */
  restarts(): number;
  stop(): Promise<void>;
}

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** Up this long and the back-off starts again from the first step. */
const HEALTHY_AFTER_MS = 60_000;

/**
 * Starts a service and restarts it whenever it exits without being asked to (a crash, an OOM
 * kill), waiting 0.5 s, 1 s, 2 s … up to 30 s between attempts, and says so in the log, so that
 * `npm start` never sits half up.
 */
export async function superviseService(
  spec: ServiceSpec,
  output: ServiceOutput,
  log: (line: string) => void,
  /** True once the whole stack is stopping: a Ctrl-C reaches the services before our stop(). */
  shuttingDown: () => boolean,
): Promise<SupervisedService> {
  let current = await startService(spec, output);
  let stopped = false;
  const stopping = () => stopped || shuttingDown();
  let restarts = 0;
  let backoff = FIRST_BACKOFF_MS;
  let startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;

  const watch = (service: ServiceProcess) => {
    service.child.once('exit', (code, signal) => {
      if (stopping()) return;
      if (Date.now() - startedAt > HEALTHY_AFTER_MS) backoff = FIRST_BACKOFF_MS;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      log(`${spec.name} exited (${how}); restarting in ${(backoff / 1000).toFixed(1)} s`);
      timer = setTimeout(() => void restart(), backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    });
  };
  const restart = async () => {
    if (stopping()) return;
    try {
      current = await startService(spec, output);
      startedAt = Date.now();
      restarts++;
      log(`${spec.name} restarted (pid ${current.child.pid})`);
      watch(current);
    } catch (error) {
      log(`${spec.name} did not start: ${String(error)}; next try in ${backoff / 1000} s`);
      timer = setTimeout(() => void restart(), backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  };
  watch(current);
  return {
    name: spec.name,
    pid: () => current.child.pid,
    restarts: () => restarts,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current.stop();
    },
  };
}
