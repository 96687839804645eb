import { readFileSync, readdirSync } from 'node:fs';

/**
 * CPU time and memory of the processes under test, from /proc (Linux): utime + stime of
 * /proc/<pid>/stat in clock ticks (100 per second on Linux), and VmRSS / VmHWM of its status.
 */
const TICK_MS = 10;

function statFields(pid: number): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields start after the last ')'.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU ms used by a process so far (utime + stime; with its reaped children when asked). */
export function cpuMs(pid: number, withReapedChildren = false): number {
  const f = statFields(pid);
  if (!f) return 0;
  // After the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14).
  const own = Number(f[11]) + Number(f[12]);
  const children = withReapedChildren ? Number(f[13]) + Number(f[14]) : 0;
  return (own + children) * TICK_MS;
}

/**
 * CPU ms used by a process so far, from the scheduler's own nanosecond clock: the sum of
 * /proc/<pid>/task/<tid>/schedstat's first field (time on CPU) over the process's threads.
 * /proc/<pid>/stat gives the same total in 10 ms ticks, truncated at every reading: on rounds of
 * a few hundred ms of CPU per set that alone moves a ratio by several per cent (issue 26, cost).
 * A thread that has exited is not counted; a Node service's threads (main, V8 platform, libuv
 * pool) live as long as the process. Falls back to the ticks where schedstat reads nothing
 * (a kernel without it reports zeros).
 */
export function preciseCpuMs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  } catch {
    return 0;
  }
  return ns > 0 ? ns / 1e6 : cpuMs(pid);
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f && Number(f[1]) === pid) out.push(Number(name));
  }
  return out;
}

/**
 * PostgreSQL's CPU: the postmaster with the backends it reaped (cutime) and those still alive.
 * A backend that exits between two readings moves from "alive" to "reaped": the sum holds.
 */
export function postgresCpuMs(postmaster: number): number {
  return childrenOf(postmaster).reduce((sum, pid) => sum + cpuMs(pid), cpuMs(postmaster, true));
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory now, in MB. */
export const rssMb = (pid: number) => statusKb(pid, 'VmRSS') / 1024;
/** The highest resident memory the process ever had (its high-water mark), in MB. */
export const peakRssMb = (pid: number) => statusKb(pid, 'VmHWM') / 1024;
