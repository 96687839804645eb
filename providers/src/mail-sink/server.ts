import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createLogger, createServiceApp, listen, type Logger } from '@campaign/platform';
import { FailureSwitch } from '../shared/failure-switch.js';
import { MessageStore } from '../shared/message-store.js';
import { toSinkMessage, type SinkMessage } from './messages.js';

export interface MailSinkOptions {
  host: string;
  /** SMTP port; 0 picks a free one (see `smtp` of the result). */
  smtpPort: number;
  /** Port of the HTTP API (`GET /messages`); 0 picks a free one. */
  httpPort: number;
  logger?: Logger;
  /** How many messages are kept (oldest dropped first); default 5000. */
  limit?: number;
}

export interface RunningMailSink {
  /** Base URL of the HTTP API, e.g. `http://127.0.0.1:4105`. */
  url: string;
  /** Where to send mail: host and port of the SMTP listener. */
  smtp: { host: string; port: number };
  /** Everything received, newest first (tests in the same process read it directly). */
  messages(): SinkMessage[];
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * The simulated mail server: a real SMTP listener (`smtp-server`) that accepts every message to
 * anyone, parses it with `mailparser` and keeps it, plus an HTTP API to read and empty what came
 * in. Plain SMTP only: STARTTLS is not offered (a self-signed certificate would make real clients
 * refuse to talk), and AUTH is accepted with any credentials so a configured user/pass works too.
 */
export async function startMailSink(options: MailSinkOptions): Promise<RunningMailSink> {
  const logger = options.logger ?? createLogger('mail-sink', 'silent');
  const store = new MessageStore<SinkMessage>(options.limit ?? 5000);
  const failures = new FailureSwitch();

  const smtp = new SMTPServer({
    name: 'mail-sink.local',
    banner: 'campaign-platform simulated mail sink',
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    // Pooled clients keep connections open; stopping should not wait 30 s for them.
    closeTimeout: 1000,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'sink' });
    },
    onData(stream, session, callback) {
      if (failures.take()) {
        // The body must still be read, or the client's DATA never ends.
        stream.on('end', () =>
          callback(
            Object.assign(new Error('Temporary failure (simulated)'), { responseCode: 451 }),
          ),
        );
        stream.resume();
        return;
      }
      const envelope = {
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        rcptTo: session.envelope.rcptTo.map((r) => r.address),
      };
      simpleParser(stream, { skipTextToHtml: true })
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(
              Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 }),
            );
            return;
          }
          const message = toSinkMessage(parsed, envelope, new Date());
          store.add(message);
          logger.info({ messageId: message.messageId, to: message.to }, 'mail received');
          callback();
        })
        .catch((error: unknown) => {
          logger.warn({ err: error }, 'mail sink could not parse a message');
          callback(Object.assign(new Error('Message could not be parsed'), { responseCode: 554 }));
        });
    },
  });
  smtp.on('error', (error) => logger.warn({ err: error }, 'mail sink SMTP error'));
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    smtp.server.once('error', onError);
    smtp.listen(options.smtpPort, options.host, () => {
      smtp.server.off('error', onError);
      resolve();
    });
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const closeSmtp = () => new Promise<void>((resolve) => smtp.close(() => resolve()));

  const app = createServiceApp({ logger, readiness: async () => {} });
  app.get<{ Querystring: { to?: string } }>('/messages', async (request) => {
    const to = typeof request.query.to === 'string' ? request.query.to.trim().toLowerCase() : '';
    return store.newestFirst((m) => !to || m.to.some((address) => address.toLowerCase() === to));
  });
  app.delete('/messages', async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });
  // The next N messages are refused with SMTP 451 (a temporary failure a sender retries).
  failures.register(app);
  let http;
  try {
    http = await listen(app, options.host, options.httpPort);
  } catch (error) {
    await closeSmtp();
    throw error;
  }
  return {
    url: http.url,
    smtp: { host: options.host, port: smtpPort },
    messages: () => store.newestFirst(),
    close: async () => {
      await Promise.all([http.close(), closeSmtp()]);
    },
  };
}
