import { z } from 'zod';

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
  if (result.success) return result.data;
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
export const booleanVar = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');
