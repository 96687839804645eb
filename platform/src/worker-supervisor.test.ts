import { EventEmitter } from 'node:events';
import type { Runner } from 'graphile-worker';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';
import { WorkerSupervisor } from './worker-supervisor.js';

/** A stand-in for a graphile-worker runner: its events, its promise and its stop. */
function fakeRunner() {
  let end!: () => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  const events = new EventEmitter();
  const stop = vi.fn(async () => end());
  const runner = { events, promise, stop, addJob: vi.fn() } as unknown as Runner;
  return { runner, events, stop, end, fail };
}

const worker = (workerId: string) => ({ workerId });

function supervised(launches: (() => Promise<Runner>)[]) {
  const unlockWorkers = vi.fn(async (_ids: string[]) => undefined);
  let next = 0;
  const launch = vi.fn(() => launches[Math.min(next++, launches.length - 1)]!());
  const supervisor = new WorkerSupervisor({
    launch,
    unlockWorkers,
    logger: createLogger('jobs', 'silent'),
    minBackoffMs: 5,
    maxBackoffMs: 20,
    launchTimeoutMs: 50,
  });
  return { supervisor, launch, unlockWorkers };
}

describe('WorkerSupervisor', () => {
  it('replaces a runner whose worker died, and frees the jobs the dead worker held', async () => {
    const first = fakeRunner();
    const second = fakeRunner();
    const { supervisor, launch, unlockWorkers } = supervised([
      async () => first.runner,
      async () => second.runner,
    ]);
    await supervisor.start();
    expect(supervisor.health()).toEqual({ ok: false, reason: 'job runner not connected yet' });
    first.events.emit('pool:listen:success', {});
    expect(supervisor.health()).toEqual({ ok: true });

    // graphile-worker 0.16: the job release failed, the worker ends itself and is not replaced.
    first.events.emit('worker:stop', { worker: worker('w1'), error: new Error('ECONNREFUSED') });
    expect(supervisor.health()).toMatchObject({ ok: false });
    expect(first.stop).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(launch).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(supervisor.restarts).toBe(1));
    expect(supervisor.health()).toMatchObject({ ok: false });
    second.events.emit('pool:listen:success', {});
    expect(supervisor.health()).toEqual({ ok: true });
    await vi.waitFor(() => expect(unlockWorkers).toHaveBeenCalledWith(['w1']));
    // Events of the retired runner no longer restart anything.
    first.events.emit('worker:stop', { worker: worker('w2') });
    first.events.emit('pool:listen:error', { error: new Error('gone') });
    expect(supervisor.health()).toEqual({ ok: true });
    await supervisor.stop();
    expect(second.stop).toHaveBeenCalledOnce();
    expect(launch).toHaveBeenCalledTimes(2);
  });

  it('keeps trying with back-off while the database is unreachable, and is not ready meanwhile', async () => {
    const first = fakeRunner();
    const last = fakeRunner();
    let down = true;
    const { supervisor, launch } = supervised([
      async () => first.runner,
      async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5433');
        return last.runner;
      },
    ]);
    await supervisor.start();
    first.events.emit('pool:listen:error', { error: new Error('terminating connection') });
    await vi.waitFor(() => expect(launch.mock.calls.length).toBeGreaterThanOrEqual(4));
    const health = supervisor.health();
    expect(health.ok).toBe(false);
    expect(!health.ok && health.reason).toMatch(
      /restarting: cannot start a new runner.*ECONNREFUSED/,
    );
    expect(supervisor.restarts).toBe(0);
    down = false;
    await vi.waitFor(() => expect(supervisor.restarts).toBe(1));
    last.events.emit('pool:listen:success', {});
    expect(supervisor.health()).toEqual({ ok: true });
    await supervisor.stop();
  });

  it('gives up a start that hangs, starts another, and stops the hung one if it ever starts', async () => {
    const first = fakeRunner();
    const hung = fakeRunner();
    const last = fakeRunner();
    let release!: () => void;
    const { supervisor, launch } = supervised([
      async () => first.runner,
      () => new Promise<Runner>((resolve) => (release = () => resolve(hung.runner))),
      async () => last.runner,
    ]);
    await supervisor.start();
    first.events.emit('pool:listen:error', { error: new Error('terminating connection') });
    await vi.waitFor(() => expect(supervisor.restarts).toBe(1));
    expect(launch).toHaveBeenCalledTimes(3);
    last.events.emit('pool:listen:success', {});
    expect(supervisor.health()).toEqual({ ok: true });
    release();
    await vi.waitFor(() => expect(hung.stop).toHaveBeenCalledOnce());
    expect(supervisor.health()).toEqual({ ok: true });
    await supervisor.stop();
    expect(last.stop).toHaveBeenCalledOnce();
  });

  it('replaces a runner whose promise ended or failed by itself', async () => {
    const runners = [fakeRunner(), fakeRunner(), fakeRunner()];
    const { supervisor } = supervised(runners.map((r) => async () => r.runner));
    await supervisor.start();
    runners[0]!.end();
    await vi.waitFor(() => expect(supervisor.restarts).toBe(1));
    runners[1]!.fail(new Error('pool failed'));
    await vi.waitFor(() => expect(supervisor.restarts).toBe(2));
    await supervisor.stop();
    expect(runners[2]!.stop).toHaveBeenCalledOnce();
  });

  it('keeps the dead workers whose jobs could not be freed for the next healthy runner', async () => {
    const runners = [fakeRunner(), fakeRunner()];
    const { supervisor, unlockWorkers } = supervised(runners.map((r) => async () => r.runner));
    unlockWorkers.mockRejectedValueOnce(new Error('database unreachable'));
    await supervisor.start();
    runners[0]!.events.emit('worker:stop', { worker: worker('w9'), error: new Error('x') });
    await vi.waitFor(() => expect(supervisor.restarts).toBe(1));
    runners[1]!.events.emit('pool:listen:success', {});
    await vi.waitFor(() => expect(unlockWorkers).toHaveBeenCalledTimes(1));
    runners[1]!.events.emit('pool:listen:success', {});
    await vi.waitFor(() => expect(unlockWorkers).toHaveBeenCalledTimes(2));
    expect(unlockWorkers).toHaveBeenLastCalledWith(['w9']);
    await supervisor.stop();
  });

  it('stop ends the back-off: no runner is started after the service stopped', async () => {
    const first = fakeRunner();
    const { supervisor, launch } = supervised([
      async () => first.runner,
      async () => {
        throw new Error('down');
      },
    ]);
    await supervisor.start();
    first.events.emit('worker:stop', { worker: worker('w1'), error: new Error('x') });
    await vi.waitFor(() => expect(launch.mock.calls.length).toBeGreaterThanOrEqual(3));
    await supervisor.stop();
    const calls = launch.mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(launch).toHaveBeenCalledTimes(calls);
    expect(supervisor.health()).toMatchObject({ ok: false });
  });
});
