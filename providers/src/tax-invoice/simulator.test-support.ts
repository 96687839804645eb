import { afterAll, beforeAll } from 'vitest';
import {
  startTaxInvoiceSimulator,
  type RunningTaxInvoiceSimulator,
  type TaxInvoiceSimulatorOptions,
} from './index.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.test-support.js';

/** A simulator's own settings; where it listens and where its webhooks go are the rig's. */
export type SimulatorSettings = Omit<
  TaxInvoiceSimulatorOptions,
  'host' | 'port' | 'webhookUrl' | 'webhookSecret'
>;

export interface SimulatorRig {
  readonly receiver: WebhookReceiver;
  /** One per settings given, in their order. */
  readonly simulators: readonly RunningTaxInvoiceSimulator[];
}

/**
 * For one test file: a webhook receiver and one simulator per `settings` (loopback, a port of
 * its own), each sending its webhooks signed with `secret` to the receiver; closed after the file.
 */
export function useSimulators(
  secret: string,
  settings: readonly SimulatorSettings[],
): SimulatorRig {
  let receiver: WebhookReceiver | undefined;
  const simulators: RunningTaxInvoiceSimulator[] = [];
  beforeAll(async () => {
    receiver = await startWebhookReceiver(secret);
    for (const own of settings) {
      simulators.push(
        await startTaxInvoiceSimulator({
          host: '127.0.0.1',
          port: 0,
          webhookUrl: receiver.url,
          webhookSecret: secret,
          ...own,
        }),
      );
    }
  });
  afterAll(async () => {
    for (const simulator of simulators) await simulator.close();
    await receiver?.close();
  });
  return {
    get receiver() {
      if (!receiver) throw new Error('the receiver starts before the first test');
      return receiver;
    },
    simulators,
  };
}
