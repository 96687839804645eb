import { createServer } from 'node:http';

/**
 * Where the benchmark's traced services export (issue 26): an OTLP/HTTP endpoint that reads and
 * drops every export, as a collector would accept it. Its own CPU is the bench process's, not a
 * service's, so the services' figures show what tracing costs them.
 */
export async function startOtlpSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
