import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  createLogger,
  createServiceApp,
  DEVELOPMENT_SECRETS,
  listen,
  type Logger,
} from '@campaign/platform';
import { registerPages } from './pages.js';
import {
  cancellationRequestSchema,
  cancelRequestSchema,
  cents,
  errorBody,
  forwardRequestSchema,
  reverseRequestSchema,
  scenarioOf,
  type IssuanceKind,
} from './protocol.js';
import { IssuanceStore, type IssuanceRecord } from './store.js';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, WebhookSender } from './webhook-sender.js';

export interface TaxInvoiceSimulatorOptions {
  host: string;
  /** 0 picks a free port; the bound one is in the returned `url`. */
  port: number;
  /** The platform's webhook, e.g. `http://127.0.0.1:8080/api/webhooks/tax-invoice`. */
  webhookUrl: string;
  /** Signs the webhook (default: the published development secret). */
  webhookSecret?: string;
  /** How long until a normal request is decided and its webhook sent (default 3000 ms). */
  delayMs?: number;
  webhookRetryDelaysMs?: readonly number[];
  /** When set, every API call needs `Authorization: Bearer <apiKey>` (else 401). */
  apiKey?: string;
  logger?: Logger;
  /** The simulator's clock (tests move it to expire approval URLs). */
  now?: () => Date;
}

export interface RunningTaxInvoiceSimulator {
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_TAX_INVOICE_DELAY_MS = 3000;
export const APPROVAL_URL_TTL_MS = 10 * 60_000;

/**
 * The simulated tax-invoice provider (protocol in docs/settlement.md): forward issuance,
 * reverse-issuance requests with approval URLs, status look-up, withdrawal of a pending request and
 * cancellation tax invoices of issued ones (never a deletion), deciding by the
 * counterparty's name (`instant_`, `fail_`, `down_`, `twice_`) and reporting late results to the
 * platform's webhook, signed.
 */
export async function startTaxInvoiceSimulator(
  options: TaxInvoiceSimulatorOptions,
): Promise<RunningTaxInvoiceSimulator> {
  const logger = options.logger ?? createLogger('tax-invoice-provider', 'silent');
  const now = options.now ?? (() => new Date());
  const sender = new WebhookSender({
    url: options.webhookUrl,
    secret: options.webhookSecret ?? DEVELOPMENT_SECRETS.webhook,
    logger,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: 5000,
  });
  let publicUrl = '';
  /** Webhook deliveries decided and not yet delivered or given up (copies included). */
  let outstanding = 0;
  const store = new IssuanceStore({
    delayMs: options.delayMs ?? DEFAULT_TAX_INVOICE_DELAY_MS,
    approvalTtlMs: APPROVAL_URL_TTL_MS,
    now,
    publicUrl: () => publicUrl,
    onDecided: (event, copies) => {
      // In order: `twice_` sends the same event again once the first delivery ended.
      outstanding += copies;
      void (async () => {
        for (let i = 0; i < copies; i += 1) {
          await sender.send(event);
          outstanding -= 1;
        }
      })();
    },
  });

  const app = createServiceApp({ logger, readiness: async () => {} });
  const { apiKey } = options;
  app.addHook('onRequest', async (request, reply) => {
    if (!apiKey || !request.url.startsWith('/v1/')) return;
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return reply.code(401).send(errorBody('UNAUTHORIZED', 'Missing or wrong API key'));
    }
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status < 500) return reply.code(status).send(errorBody('INVALID_REQUEST', error.message));
    request.log.error({ err: error }, 'tax-invoice simulator failed');
    return reply.code(500).send(errorBody('UNAVAILABLE', 'Internal error'));
  });
  registerPages(app, store, now);
  // Test controls: decide what waits for its delay now (all, or `{"issuanceKey"}`), and say
  // what is still to come (decisions waiting, webhook deliveries not yet ended), so tests wait
  // for facts instead of the delay.
  app.post('/_sim/decide-now', async (request) => {
    const key = (request.body as { issuanceKey?: unknown } | null)?.issuanceKey;
    return { decided: store.decideNow(typeof key === 'string' ? key : undefined) };
  });
  app.get('/_sim/pending', async () => ({
    decisions: store.pendingDecisions(),
    deliveries: outstanding,
  }));

  const create =
    <S extends typeof forwardRequestSchema | typeof reverseRequestSchema>(
      kind: Exclude<IssuanceKind, 'CANCELLATION'>,
      schema: S,
    ) =>
    async (request: { body: unknown }, reply: FastifyReply) => {
      const parsed = schema.safeParse(request.body);
      if (!parsed.success) return invalid(reply, parsed.error);
      const body = parsed.data as z.infer<S>;
      if (cents(body.supplyAmount) + cents(body.vat) !== cents(body.total)) {
        return reply
          .code(400)
          .send(errorBody('AMOUNT_MISMATCH', 'supplyAmount + vat must equal total'));
      }
      const counterparty = kind === 'FORWARD' ? body.buyer.name : body.supplier.name;
      if (scenarioOf(counterparty) === 'down') {
        return reply
          .code(503)
          .header('retry-after', '1')
          .send(errorBody('UNAVAILABLE', 'The provider is unavailable (simulated: down_)'));
      }
      const result = store.create(kind, body);
      if (result.outcome === 'conflict') {
        return reply
          .code(409)
          .send(errorBody('ISSUANCE_KEY_REUSED', 'This issuance key was used for another request'));
      }
      const code = result.outcome === 'created' ? 201 : 200;
      return reply.code(code).send(store.toResource(result.record));
    };
  app.post('/v1/issuances/forward', create('FORWARD', forwardRequestSchema));
  app.post('/v1/issuances/reverse', create('REVERSE', reverseRequestSchema));

  const withRecord =
    (handle: (record: IssuanceRecord, reply: FastifyReply, body: unknown) => unknown) =>
    async (request: { params: unknown; body: unknown }, reply: FastifyReply) => {
      const { key } = request.params as { key: string };
      const record = store.get(key);
      if (!record) return reply.code(404).send(errorBody('NOT_FOUND', `No issuance ${key}`));
      return handle(record, reply, request.body);
    };
  app.get(
    '/v1/issuances/:key',
    withRecord((record) => store.toResource(record)),
  );
  app.post(
    '/v1/issuances/:key/approval-url',
    withRecord((record, reply) => {
      if (record.kind !== 'REVERSE') {
        return reply.code(409).send(errorBody('NOT_REVERSE', 'Not a reverse issuance'));
      }
      if (record.status !== 'PENDING') {
        return reply
          .code(409)
          .send(errorBody('NOT_PENDING', `The reverse issuance is ${record.status}`));
      }
      store.newApprovalUrl(record);
      return store.toResource(record);
    }),
  );
  app.post(
    '/v1/issuances/:key/cancel',
    withRecord((record, reply, body) => {
      const parsed = cancelRequestSchema.safeParse(body ?? undefined);
      if (!parsed.success) return invalid(reply, parsed.error);
      if (!store.cancel(record)) {
        const why =
          record.status === 'SUCCESS'
            ? 'An issued tax invoice cannot be deleted; annul it with POST .../cancellation'
            : `A ${record.status} issuance has nothing to withdraw`;
        return reply.code(409).send(errorBody('NOT_CANCELLABLE', why));
      }
      return store.toResource(record);
    }),
  );
  // The cancellation tax invoice of an issued one (its own key; the answer is the new issuance).
  app.post(
    '/v1/issuances/:key/cancellation',
    withRecord((original, reply, body) => {
      const parsed = cancellationRequestSchema.safeParse(body);
      if (!parsed.success) return invalid(reply, parsed.error);
      if (original.scenario === 'down') {
        return reply
          .code(503)
          .header('retry-after', '1')
          .send(errorBody('UNAVAILABLE', 'The provider is unavailable (simulated: down_)'));
      }
      const result = store.createCancellation(original, parsed.data);
      switch (result.outcome) {
        case 'conflict':
          return reply
            .code(409)
            .send(
              errorBody('ISSUANCE_KEY_REUSED', 'This issuance key was used for another request'),
            );
        case 'not-issued':
          return reply
            .code(409)
            .send(
              errorBody(
                'NOT_ISSUED',
                `Issuance ${original.issuanceKey} is not an issued tax invoice`,
              ),
            );
        case 'already-cancelled':
          return reply
            .code(409)
            .send(
              errorBody(
                'ALREADY_CANCELLED',
                `Issuance ${original.issuanceKey} is already annulled by ${original.cancelledBy}`,
              ),
            );
        default:
          return reply
            .code(result.outcome === 'created' ? 201 : 200)
            .send(store.toResource(result.record));
      }
    }),
  );

  const running = await listen(app, options.host, options.port);
  publicUrl = running.url;
  return {
    url: running.url,
    close: async () => {
      store.close();
      sender.close();
      await running.close();
    },
  };
}

function invalid(reply: FastifyReply, error: z.ZodError) {
  const first = error.issues[0];
  const where = first?.path.length ? `${first.path.join('.')}: ` : '';
  return reply
    .code(400)
    .send(errorBody('INVALID_REQUEST', `${where}${first?.message ?? 'invalid'}`));
}
