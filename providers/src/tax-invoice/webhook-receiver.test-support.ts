import { createLogger, createServiceApp, listen, type RunningServer } from '@campaign/platform';
import { verifyWebhookSignature } from '@campaign/platform';

/** One webhook delivery as a test receiver saw it. */
export interface Delivery {
  body: Record<string, unknown>;
  raw: string;
  signature: string | undefined;
  signatureOk: boolean;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** Answer the next `count` deliveries with `status` (a platform that is down or refuses). */
  failNext(count: number, status?: number): void;
  /** Resolves with the first delivery about `issuanceKey` (or rejects after `timeoutMs`). */
  waitForKey(issuanceKey: string, timeoutMs?: number): Promise<Delivery>;
  close(): Promise<void>;
}

/**
 * A stand-in for the platform's `POST /api/webhooks/tax-invoice`: keeps the raw body of every
 * delivery and checks its signature with the shared verifier, as the platform will.
 */
export async function startWebhookReceiver(secret: string): Promise<WebhookReceiver> {
  const app = createServiceApp({
    logger: createLogger('receiver', 'silent'),
    readiness: async () => {},
  });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_r, body, done) =>
    done(null, body),
  );
  const deliveries: Delivery[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 503 };
  app.post('/hook', async (request, reply) => {
    if (failures.count > 0) {
      failures = { ...failures, count: failures.count - 1 };
      return reply.code(failures.status).send({ success: false });
    }
    const raw = String(request.body);
    const header = request.headers['x-signature'];
    const signature = typeof header === 'string' ? header : undefined;
    deliveries.push({
      body: JSON.parse(raw) as Record<string, unknown>,
      raw,
      signature,
      signatureOk: verifyWebhookSignature(secret, raw, signature).ok,
    });
    return { success: true, data: { applied: true } };
  });
  const server: RunningServer = await listen(app, '127.0.0.1', 0);
  return {
    url: `${server.url}/hook`,
    deliveries,
    failNext: (count, status = 503) => {
      failures = { count, status };
    },
    waitForKey: async (issuanceKey, timeoutMs = 5000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find((d) => d.body.issuanceKey === issuanceKey);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no delivery for ${issuanceKey}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: server.close,
  };
}
