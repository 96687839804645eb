import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project's file lock (`holdFileLock`): one of its files runs at a time. */
    fileLock: string;
  }
}

/**
 * A lock over loopback whose holder is a connection: the server answers one request at a time
 * and holds the granted one open; when its client closes it (or its process dies), the next
 * waiting request is answered, in the order they came. `GET /state` answers
 * `{held, waiting}`.
 */
export async function startFileLock(): Promise<{ url: string; close(): Promise<void> }> {
  const waiting: ServerResponse[] = [];
  let holder: ServerResponse | null = null;
  const grantNext = () => {
    if (holder) return;
    holder = waiting.shift() ?? null;
    holder?.writeHead(200, { 'content-type': 'text/plain' });
    holder?.write('held\n'); // the headers and a first line go out now; the body never ends
  };
  const server = createServer((request, response) => {
    if (request.url === '/state') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ held: holder !== null, waiting: waiting.length }));
      return;
    }
    response.once('close', () => {
      // The holder let go (or its process died), or a waiting request gave up.
      if (holder === response) holder = null;
      else if (waiting.includes(response)) waiting.splice(waiting.indexOf(response), 1);
      grantNext();
    });
    waiting.push(response);
    grantNext();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Longest a file waits for its turn (a lock that is never let go fails the file, not the run). */
const TURN_DEADLINE_MS = 600_000;

/** Waits for the lock at `url`; resolves with the function that lets it go. */
export function holdFileLock(url: string, deadlineMs = TURN_DEADLINE_MS): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const waiting = request(url, { agent: false }, () => {
      waiting.setTimeout(0); // held for as long as the holder runs
      resolve(() => waiting.destroy());
    });
    waiting.setTimeout(deadlineMs, () =>
      waiting.destroy(new Error(`no turn in ${deadlineMs / 1000} s`)),
    );
    waiting.on('error', reject); // after the release: nothing to do
    waiting.end();
  });
}

/**
 * Global setup of a project whose files share a stack and must run one at a time while the
 * files of another project of the same tier run beside them (issue 22: vitest gives one
 * `maxWorkers` to every project of a `sequence.groupOrder`, so two projects of one tier cannot
 * be one worker each). Each project that lists this setup gets its own lock; its setup file
 * (`file-lock-ready.ts`) holds it for the length of a file.
 */
export default async function setup(project: TestProject) {
  const lock = await startFileLock();
  project.provide('fileLock', lock.url);
  return () => lock.close();
}
