import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { SAFE_TEXT_PATTERN } from '@campaign/platform';
import { subgraphSdlFile } from '@campaign/schema';
import { settlementOpenApiText, type SettlementOpenApiSources } from '@campaign/rest-adapter';
import { inputRuleJsonSchemas, taxInvoiceWebhookEventSchema } from '@campaign/settlement';

/**
 * The sources of schema/openapi/settlement.json: the committed settlement SDL and the webhook
 * body's zod rule as JSON Schema (the rule the settlement subgraph reads deliveries with; its
 * cross-field refinements, a SUCCESS's invoice number and a FAILURE's code, are said in words),
 * and the subgraph's input rules, so every limit it checks is in the document (issue 21).
 */
export function settlementOpenApiSources(): SettlementOpenApiSources {
  const { $schema: _dialect, ...webhookBody } = z.toJSONSchema(taxInvoiceWebhookEventSchema);
  return {
    sdl: readFileSync(subgraphSdlFile('settlement'), 'utf8'),
    // Every string input also obeys the platform's text rule (no U+0000, no lone surrogate).
    inputRules: { ...inputRuleJsonSchemas(), text: { pattern: SAFE_TEXT_PATTERN } },
    webhookBody: {
      ...webhookBody,
      description:
        'One result of the tax-invoice provider. A SUCCESS carries taxInvoiceNumber, a FAILURE carries failureCode.',
    },
  };
}

/** The document as `npm run compose` writes it. */
export const settlementOpenApiDocumentText = () =>
  settlementOpenApiText(settlementOpenApiSources());
