import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

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
export function startService(
  spec: ServiceSpec,
  output: 'inherit' | 'ignore',
): Promise<ServiceProcess> {
  const child = fork(`${repoRoot}${spec.main}`, [], {
    cwd: repoRoot,
    env: { ...process.env, ...spec.env },
    execArgv: ['--import', '@swc-node/register/esm-register', '--enable-source-maps'],
    stdio: ['ignore', output, output, 'ipc'],
  });
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
