import { ConfigError } from '@campaign/platform';
import { loadStackConfig } from './config.js';
import { startStack } from './stack.js';

const log = (line: string) => console.log(`[stack] ${line}`);

try {
  const started = Date.now();
  const stack = await startStack({ config: loadStackConfig(), log, serviceOutput: 'inherit' });
  const { urls } = stack;
  console.log(`
  Campaign platform is up (${((Date.now() - started) / 1000).toFixed(1)} s)

    REST API          ${urls.rest}/api/...
    GraphQL gateway   ${urls.gateway}   (explorer: open it in a browser)
    lens subgraph     ${urls.lens}
    settlement        ${urls.settlement}
    social upstream   ${urls.upstream}

  An API key:     npm run cli -- lens:create-key
  An admin token: npm run cli -- auth:token --role SUPER_ADMIN
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
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
