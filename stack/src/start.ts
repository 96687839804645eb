import { ConfigError, logFormat } from '@campaign/platform';
import { loadStackConfig } from './config.js';
import { EmbeddedDatabaseError } from './embedded-postgres.js';
import { StackLockedError } from './stack-lock.js';
import { startStack } from './stack.js';

const log = (line: string) => console.log(`[stack] ${line}`);

/** What went wrong and what to do next, in words; a stack trace only when asked for. */
function explainStartFailure(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof StackLockedError) return `[stack] ${error.message}`;
  if (error instanceof EmbeddedDatabaseError)
    return [
      `[stack] the embedded PostgreSQL cannot start: ${error.message}`,
      '[stack] To use a PostgreSQL server of your own instead, set both LENS_DATABASE_URL and',
      '[stack] SETTLEMENT_DATABASE_URL (postgres://user:password@host:5432/name) and start again.',
    ].join('\n');
  const detail = process.env['LOG_LEVEL'] === 'debug' && error instanceof Error ? error.stack : '';
  return [
    `[stack] start failed: ${error instanceof Error ? error.message : String(error)}`,
    detail || '[stack] (LOG_LEVEL=debug npm start prints the details)',
  ].join('\n');
}

try {
  const started = Date.now();
  // The services write to this terminal through the stack: whether a person reads it (readable
  // lines) or a program does (JSON) is known here, so it is decided here and handed down.
  const format = logFormat();
  process.env['LOG_FORMAT'] = format;
  const stack = await startStack({
    config: loadStackConfig(),
    log,
    serviceOutput: 'inherit',
    serviceEnv: { LOG_FORMAT: format },
  });
  const { urls } = stack;
  const mailSink = urls.mailSink
    ? `${urls.mailSink}/messages   (SMTP ${urls.mailSmtp})`
    : 'your SMTP server (SMTP_HOST)';
  const chat = urls.chat ? `${urls.chat}/messages` : urls.chatWebhook;
  console.log(`
  Campaign platform is up (${((Date.now() - started) / 1000).toFixed(1)} s)

    REST API          ${urls.rest}/api/...
    API reference     ${urls.rest}/docs   (open it in a browser; "Try it out" sends)
    GraphQL explorer  ${urls.gateway}   (open it in a browser; the API at the same URL)
    lens subgraph     ${urls.lens}
    settlement        ${urls.settlement}
    social upstream   ${urls.upstream}
    mail sink         ${mailSink}
    team chat         ${chat}
    tax invoices      ${urls.taxInvoice}
    tax authority     ${urls.taxAuthority}

  An API key:      npm run cli -- lens:create-key
  An admin token:  npm run cli -- auth:token --role SUPER_ADMIN
  A partner token: npm run cli -- auth:token --role PARTNER --partner <id>
  Logs: one line per event here (LOG_FORMAT=json for JSON lines, LOG_LEVEL=debug for every request).
  Ctrl-C stops everything.
`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping services and PostgreSQL`);
    await stack.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  console.error(explainStartFailure(error));
  process.exit(1);
}
