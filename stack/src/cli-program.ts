import 'reflect-metadata';
import { Command, InvalidArgumentError, type CommanderError } from 'commander';
import { ID_CLAIM_PATTERN, TENANT_CLAIM_PATTERN } from '@campaign/platform';
import { roles, signToken, type Role } from '@campaign/platform';
import { cliContext } from './cli-context.js';
import { addDatabaseCommands } from './cli-database.js';
import { addLensCommands } from './cli-lens.js';

/** A usage error commander has already reported (on stderr); the entry point only exits. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs one operator command (`npm run cli -- <args>`) in this process: `args` without the program
 * name, `environment` in place of process.env (tests pass their stack's database URLs), and
 * `print` for each line of output. Resolves with the lines printed; rejects with the command's
 * error (a CliExit where commander itself rejected the arguments).
 */
export async function runCli(
  args: readonly string[],
  environment: Record<string, string | undefined> = process.env,
  print: (line: string) => void = () => undefined,
): Promise<string[]> {
  const printed: string[] = [];
  const cli = cliContext(environment, (line) => {
    printed.push(line);
    print(line);
  });
  const { env } = cli;
  const { emit } = cli;

  const program = new Command('cli')
    .description('Campaign platform operator commands')
    .showHelpAfterError();

  addLensCommands(program, cli);

  program
    .command('auth:token')
    .description('print a JWT for the admin and partner interfaces')
    .requiredOption('--role <role>', roles.join('|'))
    .option('--agency <id>', 'agencyId claim (an ADMIN scoped to one agency)')
    .option('--partner <id>', 'partnerId claim (required for PARTNER)')
    .option('--tenant <id>', 'tenantId claim: the lens tenant (required for TENANT)')
    .option('--expires <duration>', 'lifetime, e.g. 12h or 30m', '12h')
    .action(
      async (options: {
        role: string;
        agency?: string;
        partner?: string;
        tenant?: string;
        expires: string;
      }) => {
        if (!roles.includes(options.role as Role))
          throw new InvalidArgumentError(`--role must be one of ${roles.join(', ')}`);
        if (options.role === 'PARTNER' && !options.partner)
          throw new InvalidArgumentError('--partner is required for PARTNER');
        if ((options.role === 'TENANT') !== (options.tenant !== undefined))
          throw new InvalidArgumentError('--tenant is required for TENANT, and only for it');
        if (options.tenant !== undefined && !TENANT_CLAIM_PATTERN.test(options.tenant))
          throw new InvalidArgumentError('--tenant is a lens tenant id (a UUID)');
        for (const id of [options.agency, options.partner]) {
          if (id !== undefined && !ID_CLAIM_PATTERN.test(id))
            throw new InvalidArgumentError('ids are positive whole numbers');
        }
        const token = await signToken(
          { secret: env.AUTH_JWT_SECRET, issuer: env.AUTH_JWT_ISSUER },
          {
            subject: `cli-${options.role.toLowerCase()}`,
            role: options.role as Role,
            agencyId: options.agency ?? null,
            partnerId: options.partner ?? null,
            tenantId: options.tenant ?? null,
          },
          options.expires,
        );
        emit(token);
      },
    );

  addDatabaseCommands(program, cli);
  program.exitOverride((error: CommanderError) => {
    throw new CliExit(error.exitCode, error.message);
  });
  await program.parseAsync([...args], { from: 'user' });
  return printed;
}
