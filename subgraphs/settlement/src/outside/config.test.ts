import { DEVELOPMENT_SECRETS } from '@campaign/platform';
import { describe, expect, it } from 'vitest';
import { outsideSystemsEnv } from './config.js';
import { createOutsideSystems } from './systems.js';

describe('outside systems configuration', () => {
  it('defaults to the embedded stack’s simulators', () => {
    const config = outsideSystemsEnv.parse({});
    expect(config).toMatchObject({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: 4101,
      SMTP_SECURE: false,
      TEAM_CHAT_WEBHOOK_URL: 'http://127.0.0.1:4102/webhook',
      TAX_INVOICE_PROVIDER_URL: 'http://127.0.0.1:4103',
      TAX_AUTHORITY_URL: 'http://127.0.0.1:4104',
      TAX_INVOICE_WEBHOOK_SECRET: DEVELOPMENT_SECRETS.webhook,
    });
  });

  it('reads real endpoints and credentials, and names bad values', () => {
    const config = outsideSystemsEnv.parse({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '465',
      SMTP_SECURE: 'true',
      SMTP_USER: 'mailer',
      SMTP_PASS: 'pw',
      TAX_AUTHORITY_URL: 'https://api.odcloud.kr',
      TAX_AUTHORITY_SERVICE_KEY: 'k',
    });
    expect(config).toMatchObject({ SMTP_PORT: 465, SMTP_SECURE: true, SMTP_USER: 'mailer' });
    const bad = outsideSystemsEnv.safeParse({
      SMTP_PORT: '0',
      TEAM_CHAT_WEBHOOK_URL: 'nope',
      TAX_INVOICE_WEBHOOK_SECRET: 'short',
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path[0]).sort()).toEqual([
      'SMTP_PORT',
      'TAX_INVOICE_WEBHOOK_SECRET',
      'TEAM_CHAT_WEBHOOK_URL',
    ]);
  });

  it('builds the four adapters', async () => {
    const systems = createOutsideSystems(
      outsideSystemsEnv.parse({ MAIL_FROM: 'Ops <ops@agency.example>' }),
    );
    expect(systems.mailer.messageIdFor('SET1:v1:X')).toMatch(/@agency\.example>$/);
    expect(systems.taxInvoiceWebhookSecret).toBe(DEVELOPMENT_SECRETS.webhook);
    await systems.close();
  });
});
