import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { lensOperationList } from '@campaign/schema';
import { lensTools, listedTool, statusTool, toolName, type LensTool } from './tools.js';

const tool = (name: string): LensTool => lensTools.get(name)!;
const ONE = { base: 1, perItem: 1 };

/** How the SDK's own client compiles output schemas (its default validator: Ajv, draft-07). */
function sdkClientAjv() {
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false });
  addFormats.default(ajv);
  return ajv;
}

describe('one MCP tool per lens operation declaration (DESIGN.md section 5)', () => {
  it('names each lens_ + the operation name with . as _', () => {
    expect([...lensTools.keys()]).toEqual(
      lensOperationList.map((c) => `lens_${c.name.replace('.', '_')}`),
    );
    expect(toolName('accounts.taggedPosts')).toBe('lens_accounts_taggedPosts');
    expect(lensTools.size).toBe(13);
  });

  it('takes the REST body plus a required requestKey of 1-128 characters', () => {
    const posts = tool('lens_accounts_posts').inputSchema;
    expect(posts['required']).toEqual(['accountRef', 'requestKey']);
    expect(posts['additionalProperties']).toBe(false);
    expect(Object.keys(posts['properties'] as object)).toEqual([
      'accountRef',
      'cursor',
      'pageSize',
      'requestKey',
    ]);
    expect((posts['properties'] as Record<string, unknown>)['requestKey']).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 128,
    });
  });

  it('schemas stand alone: every reference points into their own $defs, and both compile', () => {
    const strict = new Ajv2020({ strict: false });
    addFormats.default(strict);
    for (const each of [...lensTools.values()]) {
      for (const schema of [each.inputSchema, each.outputSchema]) {
        expect(JSON.stringify(schema)).not.toContain('#/components/');
        expect(() => strict.compile(schema)).not.toThrow();
      }
      expect(() => sdkClientAjv().compile(each.outputSchema)).not.toThrow();
    }
  });

  it('its input schema accepts what REST accepts and refuses the rest', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(tool('lens_accounts_followers').inputSchema);
    const ref = { accountRef: { handle: 'minji.daily' }, requestKey: 'k1' };
    expect(validate(ref)).toBe(true);
    expect(validate({ ...ref, search: 'kim', pageSize: 5 })).toBe(false);
    expect(validate({ accountRef: { handle: 'minji.daily' } })).toBe(false);
    expect(validate({ ...ref, extra: 1 })).toBe(false);
  });

  it('its output schema is the envelope, with the operation’s own result', () => {
    const validate = sdkClientAjv().compile(tool('lens_accounts_about').outputSchema);
    const envelope = {
      operationId: '6f1c1d2e-0a0b-4c3d-8e9f-0123456789ab',
      operationName: 'accounts.about',
      status: 'RUNNING',
      credits: { reserved: 1, charged: 0, refunded: 0 },
      replayed: false,
    };
    expect(validate(envelope)).toBe(true);
    expect(validate({ ...envelope, observedAt: 'x' })).toBe(false);
    expect(sdkClientAjv().compile(statusTool.outputSchema!)(envelope)).toBe(true);
  });
});

describe('descriptions a model can act on', () => {
  it('say the deployment’s price, what is reserved and refunded', () => {
    const profile = listedTool(tool('lens_accounts_profile'), { base: 3, perItem: 0 });
    expect(profile.description).toContain('Costs 3 credits per call.');
    const posts = listedTool(tool('lens_accounts_posts'), ONE).description!;
    expect(posts).toContain('plus 1 credit per item delivered');
    expect(posts).toContain('1 + 1 × (pageSize, default 12) is reserved');
    expect(listedTool(tool('lens_accounts_stories'), ONE).description).toContain(
      'the number of accountRefs',
    );
  });

  it('explain paging only where there is a cursor, and RUNNING everywhere', () => {
    const followers = listedTool(tool('lens_accounts_followers'), ONE).description!;
    expect(followers).toContain('send data.nextCursor back as cursor');
    expect(followers).toContain('search filters the list and disables paging');
    const about = listedTool(tool('lens_accounts_about'), ONE).description!;
    expect(about).not.toContain('nextCursor');
    expect(about).toContain('call lens_operations_status');
  });
});
