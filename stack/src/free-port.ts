import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports for stacks started beside others (tests, faults, bench) that cannot collide.
 *
 * A port from `listen(0)` that is released and bound again later can be taken in between by any
 * outgoing connection (the kernel hands those out from the ephemeral range), and by another
 * test process asking the kernel the same question. So a reserved port is taken from BELOW the
 * ephemeral range, where the kernel never hands anything out, and is held by a lock file (one
 * per port, created exclusively, naming our pid) shared by every process on the machine until
 * it is released or its process is gone. A port is handed out only when it is also bindable
 * now. The stack's own children then bind exactly that port, and bind it again after a restart.
 */
const LOCK_DIR = join(tmpdir(), 'campaign-platform-ports');
/** Above every fixed port of DESIGN section 5 (4000-4105, 5433, 8080) and common services. */
const LOWEST = 15_000;

function rangeBelowEphemeral(): [number, number] {
  try {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
    if (Number.isInteger(low) && low > LOWEST + 1000) return [LOWEST, low - 1];
  } catch {
    // Not Linux: the IANA dynamic range starts at 49152.
  }
  return [LOWEST, 32_767];
}

const held = new Set<number>();
let exitHookInstalled = false;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Takes the port's lock file, clearing one left by a process that is gone; false if held. */
function lock(port: number): boolean {
  const file = join(LOCK_DIR, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(file, 'utf8'));
      } catch {
        continue; // released in between: try again
      }
      // An empty file is one being written right now: held.
      if (!owner || alive(owner)) return false;
      try {
        unlinkSync(file);
      } catch {
        // another process cleared it first
      }
    }
  }
  return false;
}

function unlock(port: number): void {
  held.delete(port);
  try {
    unlinkSync(join(LOCK_DIR, String(port)));
  } catch {
    // already gone
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

/** Reserves this one port if no process holds it and nothing listens on it; false otherwise. */
export async function reservePort(port: number): Promise<boolean> {
  mkdirSync(LOCK_DIR, { recursive: true, mode: 0o1777 });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => [...held].forEach(unlock));
  }
  if (held.has(port) || !lock(port)) return false;
  held.add(port);
  if (await bindable(port)) return true;
  unlock(port); // something outside the allocator listens there
  return false;
}

/**
 * A port reserved for this process until `releasePorts` or exit: below the kernel's ephemeral
 * range, locked against every other process that uses this allocator, and free right now.
 */
export async function freePort(): Promise<number> {
  const [low, high] = rangeBelowEphemeral();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await reservePort(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high} after 200 tries`);
}

/** Gives reserved ports back (a stopped stack); ports never reserved are ignored. */
export function releasePorts(ports: Iterable<number | string>): void {
  for (const port of ports) if (held.has(Number(port))) unlock(Number(port));
}

/**
 * A reserved port for the database, each service and each simulator, as the stack
 * configuration's variables: what every stack started on a busy machine (tests, faults, a child
 * `npm start`) binds. `npm start` itself keeps the fixed ports of DESIGN section 5.
 */
export async function freeStackPorts() {
  const names = [
    'EMBEDDED_PG_PORT',
    'REST_PORT',
    'GATEWAY_PORT',
    'LENS_PORT',
    'SETTLEMENT_PORT',
    'PROVIDERS_BASE_PORT',
    'MAIL_SIM_SMTP_PORT',
    'MAIL_SIM_HTTP_PORT',
    'CHAT_SIM_PORT',
    'TAX_INVOICE_SIM_PORT',
    'TAX_AUTHORITY_SIM_PORT',
  ] as const;
  const entries: [(typeof names)[number], string][] = [];
  for (const name of names) entries.push([name, String(await freePort())]);
  return Object.fromEntries(entries) as Record<(typeof names)[number], string>;
}
