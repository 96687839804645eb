import { InvalidArgumentError, type Command } from 'commander';
import { TENANT_CLAIM_PATTERN } from '@campaign/platform';
import {
  CredentialService,
  CreditsService,
  initLensOrm,
  PLANS,
  TenantRepository,
  TenantService,
} from '@campaign/lens';
import type { CliContext } from './cli-context.js';

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

/** The lens operator commands: create a tenant or a key, read or top up credits, revoke a key. */
export function addLensCommands(program: Command, cli: CliContext): void {
  const { emit, positiveInt } = cli;

  async function withLens<T>(
    work: (orm: Awaited<ReturnType<typeof initLensOrm>>) => Promise<T>,
  ): Promise<T> {
    const orm = await initLensOrm(cli.lensUrl, 2);
    try {
      return await work(orm);
    } finally {
      await orm.close();
    }
  }

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
}
