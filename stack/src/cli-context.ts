import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { databaseUrlVar, jwtIssuerVar, jwtSecretVar, parseEnv, portVar } from '@campaign/platform';
import { PG_PASSWORD, PG_USER } from './embedded-postgres.js';

const cliEnvSchema = z.object({
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: portVar(5433),
  LENS_DATABASE_URL: databaseUrlVar.optional(),
  SETTLEMENT_DATABASE_URL: databaseUrlVar.optional(),
  AUTH_JWT_SECRET: jwtSecretVar,
  AUTH_JWT_ISSUER: jwtIssuerVar,
});
type CliConfig = z.infer<typeof cliEnvSchema>;
const configs = new Map<string, CliConfig>();

/**
 * The CLI's settings, read once per distinct environment: a process that runs many commands (the
 * tests) is warned about a development secret once, as the `npm run cli` process is.
 */
function cliConfig(environment: Record<string, string | undefined>) {
  const key = JSON.stringify(Object.keys(cliEnvSchema.shape).map((name) => environment[name]));
  let config = configs.get(key);
  if (!config) {
    config = parseEnv('cli', cliEnvSchema, environment);
    configs.set(key, config);
  }
  return config;
}

/** What every command of the CLI is given: its settings, the database URLs and its output. */
export interface CliContext {
  env: CliConfig;
  lensUrl: string;
  settlementUrl: string;
  /** Prints one line (and keeps it for runCli's answer). */
  emit: (line: string | number) => void;
  /** A commander parser of a whole-number option named `name`. */
  positiveInt: (name: string) => (value: string) => number;
}

/** The context of one run of the CLI in `environment`, printing each line with `print`. */
export function cliContext(
  environment: Record<string, string | undefined>,
  print: (line: string) => void,
): CliContext {
  const env = cliConfig(environment);
  const embeddedUrl = (db: string) =>
    `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${env.EMBEDDED_PG_PORT}/${db}`;
  return {
    env,
    lensUrl: env.LENS_DATABASE_URL ?? embeddedUrl('lens'),
    settlementUrl: env.SETTLEMENT_DATABASE_URL ?? embeddedUrl('settlement'),
    emit: (line) => print(String(line)),
    positiveInt: (name) => (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
      return Number(value);
    },
  };
}
