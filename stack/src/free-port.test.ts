import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, freeStackPorts, releasePorts, reservePort } from './free-port.js';

const lockFile = (port: number) => join(tmpdir(), 'campaign-platform-ports', String(port));
const ephemeralLow = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
);

/** A separate process that reserves one port and stays alive until killed. */
function otherProcess(): Promise<{ port: number; kill(): Promise<void> }> {
  const module = JSON.stringify(new URL('./free-port.ts', import.meta.url).href);
  const script = `const { freePort } = await import(${module});
    console.log(await freePort()); setInterval(() => {}, 1000);`;
  const child = spawn(
    process.execPath,
    ['--import', '@swc-node/register/esm-register', '--input-type=module', '-e', script],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) =>
      resolve({
        port: Number(chunk.toString()),
        kill: () => (child.kill('SIGKILL'), exited),
      }),
    );
    void exited.then(() => reject(new Error('the reserving process exited')));
  });
}

describe('reserved ports (stacks started beside each other cannot collide)', () => {
  it('gives every stack variable its own port below the kernel ephemeral range', async () => {
    const ports = Object.values(await freeStackPorts()).map(Number);
    expect(ports).toHaveLength(11);
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeLessThan(ephemeralLow);
      expect(readFileSync(lockFile(port), 'utf8')).toBe(String(process.pid));
    }
    releasePorts(ports);
    for (const port of ports) expect(existsSync(lockFile(port))).toBe(false);
  });

  it('never hands out a port another live process holds; takes it once that process is gone', async () => {
    const other = await otherProcess();
    expect(await reservePort(other.port)).toBe(false);
    await other.kill(); // SIGKILL: no exit hook ran, the lock file stays behind
    expect(existsSync(lockFile(other.port))).toBe(true);
    expect(await reservePort(other.port)).toBe(true);
    releasePorts([other.port]);
  }, 30_000);

  it('never hands out a port something else listens on, nor one it already holds', async () => {
    const port = await freePort();
    expect(await reservePort(port)).toBe(false);
    releasePorts([port]);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
    try {
      expect(await reservePort(port)).toBe(false);
      expect(existsSync(lockFile(port))).toBe(false);
    } finally {
      squatter.close();
    }
  });

  it('treats a lock of a process id that does not exist as free', async () => {
    const port = await freePort();
    releasePorts([port]);
    writeFileSync(lockFile(port), '999999999');
    expect(await reservePort(port)).toBe(true);
    releasePorts([port]);
  });
});
