import 'reflect-metadata';
import { Command, InvalidArgumentError, type CommanderError } from 'commander';
import { z } from 'zod';
import {
  databaseUrlVar,
  ID_CLAIM_PATTERN,
  jwtIssuerVar,
  jwtSecretVar,
  parseEnv,
  portVar,
  TENANT_CLAIM_PATTERN,
} from '@campaign/platform';
import { CreditsService } from '@campaign/lens';
import { initLensOrm } from '@campaign/lens';
import { PLANS } from '@campaign/lens';
import { CredentialService, TenantRepository, TenantService } from '@campaign/lens';
import { roles, signToken, type Role } from '@campaign/platform';
import { dropDatabase, ensureDatabase, migrateAll, sessionsOn } from './databases.js';
import { PG_PASSWORD, PG_USER, startEmbeddedPostgres } from './embedded-postgres.js';
import { seedSettlement } from './seed.js';
import { acquireStackLock, stackLockHolder } from './stack-lock.js';
import { resolve } from 'node:path';
import { repoRoot } from './processes.js';

const cliEnvSchema = z.object({
  DATA_DIR: z.string().default('.data'),
  EMBEDDED_PG_PORT: portVar(5433),
  LENS_DATABASE_URL: databaseUrlVar.optional(),
  SETTLEMENT_DATABASE_URL: databaseUrlVar.optional(),
  AUTH_JWT_SECRET: jwtSecretVar,
  AUTH_JWT_ISSUER: jwtIssuerVar,
});
const configs = new Map<string, z.infer<typeof cliEnvSchema>>();

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

interface CreateKeyOptions {
  tenant?: string;
  credits?: number;
  operations?: string;
  rateLimit?: number;
  plan?: string;
  kind: string;
  email?: string;
  alertBelow?: number;
}

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
/**
 * `db:reset` refuses while a stack runs on the data (issue 23 item 7): the data folder's lock
 * held by a live `npm start`, or any other session on either database, named in the message.
 */
async function refuseWhileInUse(dataDir: string, urls: string[]): Promise<void> {
  const holder = stackLockHolder(dataDir);
  if (holder) {
    throw new Error(
      `db:reset refused: ${holder.command} (pid ${holder.pid}, since ${holder.since}) is running ` +
        `on the data in ${dataDir}. Stop it first (Ctrl-C in its terminal), then reset.`,
    );
  }
  const sessions = (await Promise.all(urls.map(sessionsOn))).flat();
  if (sessions.length) {
    const who = sessions
      .slice(0, 5)
      .map(
        (s) => `${s.application} (pid ${s.pid}${s.client ? `, ${s.client}` : ''}) on ${s.database}`,
      )
      .join('; ');
    throw new Error(
      `db:reset refused: ${sessions.length} connection(s) use the databases: ${who}. A stack ` +
        'seems to be running on this data; stop it first, then reset.',
    );
  }
}

export async function runCli(
  args: readonly string[],
  environment: Record<string, string | undefined> = process.env,
  print: (line: string) => void = () => undefined,
): Promise<string[]> {
  const printed: string[] = [];
  const emit = (line: string | number) => {
    printed.push(String(line));
    print(String(line));
  };
  const env = cliConfig(environment);
  const embeddedUrl = (db: string) =>
    `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${env.EMBEDDED_PG_PORT}/${db}`;
  const lensUrl = env.LENS_DATABASE_URL ?? embeddedUrl('lens');
  const settlementUrl = env.SETTLEMENT_DATABASE_URL ?? embeddedUrl('settlement');

  const positiveInt = (name: string) => (value: string) => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
    return Number(value);
  };

  async function withLens<T>(
    work: (orm: Awaited<ReturnType<typeof initLensOrm>>) => Promise<T>,
  ): Promise<T> {
    const orm = await initLensOrm(lensUrl, 2);
    try {
      return await work(orm);
    } finally {
      await orm.close();
    }
  }

  const program = new Command('cli')
    .description('Campaign platform operator commands')
    .showHelpAfterError();

  program
    .command('lens:create-key')
    .description(
      'create a lens tenant with one API key, or (--tenant) add a credential to a tenant, and ' +
        'print the key (shown only now) as the last line',
    )
    .option(
      '--tenant <id>',
      'add the credential to this existing tenant (its credits, plan, limit)',
    )
    .option(
      '--credits <n>',
      'starting credit balance of a new tenant (default 1000)',
      positiveInt('--credits'),
    )
    .option('--operations <list>', 'comma-separated operation names (default: every operation)')
    .option(
      '--rate-limit <n>',
      'requests per minute (default: the plan’s)',
      positiveInt('--rate-limit'),
    )
    .option('--plan <name>', 'plan name of a new tenant (default: default)')
    .option('--kind <kind>', 'rest (API key) or mcp (tool-protocol token)', 'rest')
    .option('--email <address>', 'low-balance alert: the contact e-mail (with --alert-below)')
    .option('--alert-below <n>', 'low-balance alert: the threshold', positiveInt('--alert-below'))
    .action(async (options: CreateKeyOptions) => {
      if (options.kind !== 'rest' && options.kind !== 'mcp')
        throw new InvalidArgumentError('--kind must be rest or mcp');
      if ((options.email === undefined) !== (options.alertBelow === undefined))
        throw new InvalidArgumentError('--email and --alert-below go together');
      if (options.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email))
        throw new InvalidArgumentError('--email must be an e-mail address');
      const kind = options.kind;
      if (options.tenant !== undefined) {
        const tenantId = options.tenant;
        const fixed = ['credits', 'operations', 'rateLimit', 'plan'] as const;
        if (fixed.some((name) => options[name] !== undefined))
          throw new InvalidArgumentError(
            '--credits, --operations, --rate-limit and --plan describe a new tenant; a credential ' +
              'added with --tenant shares its tenant’s (top up with lens:credits)',
          );
        const issued = await withLens(async (orm) => {
          const em = orm.em.fork();
          const accounts = new TenantRepository();
          if (!TENANT_CLAIM_PATTERN.test(tenantId) || !(await accounts.find(em, tenantId)))
            throw new InvalidArgumentError(`no lens tenant ${tenantId}`);
          if (options.email !== undefined)
            await accounts.setAlert(em, tenantId, options.email, options.alertBelow!);
          const service = new CredentialService({ rotationGraceSeconds: 0, forget: () => {} });
          return service.create(em, tenantId, kind);
        });
        emit(`credential ${issued.credential.id} (${kind}) of tenant ${tenantId}`);
        emit(issued.secret);
        return;
      }
      const planName = options.plan ?? 'default';
      const plan = Object.hasOwn(PLANS, planName) ? PLANS[planName] : undefined;
      if (!plan)
        throw new InvalidArgumentError(`--plan must be one of ${Object.keys(PLANS).join(', ')}`);
      const credits = options.credits ?? 1000;
      const created = await withLens((orm) =>
        new TenantService().createTenantWithKey(orm.em.fork(), {
          name: `tenant-${new Date().toISOString()}`,
          plan: planName,
          permissions: options.operations
            ? options.operations.split(',').map((s) => s.trim())
            : ['*'],
          rateLimitPerMinute: options.rateLimit ?? plan.rateLimitPerMinute,
          credits,
          kind,
          alertEmail: options.email ?? null,
          alertBelow: options.alertBelow ?? null,
        }),
      );
      emit(`tenant ${created.tenantId}, ${credits} credits, plan ${planName}`);
      emit(created.apiKey);
    });

  program
    .command('lens:credits <key>')
    .description("print (and optionally top up) the key's tenant balance")
    .option('--add <n>', 'credits to add', positiveInt('--add'))
    .action(async (key: string, options: { add?: number }) => {
      const balance = await withLens(async (orm) => {
        const em = orm.em.fork();
        const tenant = await new TenantService().findByKey(em, key);
        if (!tenant) throw new InvalidArgumentError('no tenant has this key');
        const credits = new CreditsService();
        if (options.add)
          return em.transactional((tx) => credits.topUp(tx, tenant.id, options.add!));
        return credits.balance(em, tenant.id);
      });
      emit(balance);
    });

  program
    .command('lens:revoke-key <key>')
    .description('revoke an API key (or tool token) for good; its tenant and balance stay')
    .action(async (key: string) => {
      const revoked = await withLens((orm) => new TenantService().revokeKey(orm.em.fork(), key));
      if (!revoked) throw new InvalidArgumentError('no active key matches');
      emit('revoked');
    });

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

  program
    .command('db:reset')
    .description('drop and re-create both databases with migrations and demo data')
    .action(async () => {
      const embedded = !env.LENS_DATABASE_URL;
      let stop = async () => undefined as void;
      try {
        await ensureDatabase(lensUrl);
      } catch {
        if (!embedded) throw new Error('cannot reach the configured PostgreSQL');
        const lock = await acquireStackLock(
          resolve(repoRoot, env.DATA_DIR),
          'npm run cli -- db:reset',
        );
        const db = await startEmbeddedPostgres({
          dataDir: resolve(repoRoot, env.DATA_DIR, 'postgres'),
          port: env.EMBEDDED_PG_PORT,
          log: (line) => emit(line),
        });
        stop = async () => {
          await db.stop();
          lock.release();
        };
      }
      try {
        // Never under a running stack (issue 23 item 7): its data would change mid-request.
        await refuseWhileInUse(resolve(repoRoot, env.DATA_DIR), [lensUrl, settlementUrl]);
        for (const url of [lensUrl, settlementUrl]) {
          await dropDatabase(url);
          await ensureDatabase(url);
        }
        await migrateAll({ lens: lensUrl, settlement: settlementUrl });
        await seedSettlement(settlementUrl);
        emit('databases lens and settlement re-created with migrations and demo data');
      } finally {
        await stop();
      }
    });
  program.exitOverride((error: CommanderError) => {
    throw new CliExit(error.exitCode, error.message);
  });
  await program.parseAsync([...args], { from: 'user' });
  return printed;
}
