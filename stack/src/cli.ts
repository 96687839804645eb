// The `npm run cli` entry point: the commands themselves live in cli-program.ts, so tests run
// them in process; this file only ties them to the process's arguments, output and exit code.
import { CliExit, runCli } from './cli-program.js';

try {
  await runCli(process.argv.slice(2), process.env, (line) => console.log(line));
} catch (error) {
  if (error instanceof CliExit) process.exit(error.exitCode);
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
