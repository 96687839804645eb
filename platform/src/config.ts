import { z } from 'zod';
import { developmentSecretsIn } from './secrets.js';

export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`${service}: invalid configuration\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once, at start. Every bad variable is reported together, by name, so
 * an operator fixes them in one go.
 */
export function parseEnv<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) {
    refuseDevelopmentSecrets(service, result.data, env['NODE_ENV']);
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = env[String(issue.path[0])];
    const shown = value === undefined ? 'not set' : `got ${JSON.stringify(value)}`;
    return `${name}: ${issue.message} (${shown})`;
  });
  throw new ConfigError(service, problems);
}

export const portVar = (fallback: number) =>
  z.coerce.number().int().min(0).max(65535).default(fallback);
export const hostVar = z.string().min(1).default('127.0.0.1');
export const logLevelVar = z
  .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  .default('info');
export const urlVar = z.url();
/** A PostgreSQL connection URL (the services never guess a database). */
export const databaseUrlVar = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL');
export const booleanVar = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Published development secrets: a warning on a development machine, refused in production. */
function refuseDevelopmentSecrets(service: string, config: unknown, nodeEnv: string | undefined) {
  const names = developmentSecretsIn(config);
  if (!names.length) return;
  if (nodeEnv === 'production')
    throw new ConfigError(
      service,
      names.map((name) => `${name}: the published development value is refused in production`),
    );
  console.warn(
    `${service}: warning: ${names.join(', ')} ${names.length > 1 ? 'hold' : 'holds'} the ` +
      'published development value; set your own before exposing this service ' +
      '(refused when NODE_ENV=production)',
  );
}

/**
 * `json`: one JSON object per line, for machines (log shippers, `jq`); `pretty`: one readable
 * line per event, for a person at a terminal; `auto`: pretty when stdout is a terminal.
 */
export const logFormatVar = z.enum(['auto', 'pretty', 'json']).default('auto');
export type LogFormat = 'pretty' | 'json';

/** LOG_FORMAT, validated, with `auto` decided by whether this process writes to a terminal. */
export function logFormat(
  env: Record<string, string | undefined> = process.env,
  isTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  const { LOG_FORMAT } = parseEnv('logging', z.object({ LOG_FORMAT: logFormatVar }), env);
  if (LOG_FORMAT === 'auto') return isTerminal ? 'pretty' : 'json';
  return LOG_FORMAT;
}

/** The standard OpenTelemetry variables this project reads itself (the SDK reads the rest). */
const telemetryEnv = z.object({
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_SDK_DISABLED: booleanVar(false),
  OTEL_SERVICE_NAME: z.string().optional(),
  OTEL_SEMCONV_STABILITY_OPT_IN: z.string().optional(),
});
export type TelemetryEnv = z.infer<typeof telemetryEnv>;

export function telemetrySettings(
  env: Record<string, string | undefined> = process.env,
): TelemetryEnv {
  return parseEnv('telemetry', telemetryEnv, env);
}

/**
 * Stable semantic conventions (http.request.method, url.path, db.query.text, ...) unless the
 * operator chose otherwise: the instrumentations read this variable when they are built.
 */
export function preferStableSemconv(settings: TelemetryEnv): void {
  if (settings.OTEL_SEMCONV_STABILITY_OPT_IN === undefined)
    process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = 'http,database';
}

const metricsEnv = z.object({
  /** false: no request histogram and no /metrics at all (the benchmark's baseline). */
  METRICS_ENABLED: booleanVar(true),
  /** When set, `/metrics` answers only `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  NODE_ENV: z.string().optional(),
});

export function metricsSettings(env: Record<string, string | undefined> = process.env) {
  return parseEnv('metrics', metricsEnv, env);
}
