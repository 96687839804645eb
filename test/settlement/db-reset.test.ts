import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import * as f from './support.js';

/**
 * `npm run cli -- db:reset` while a stack runs on the data (issue 23 item 7): it refuses, naming
 * who uses the databases, and nothing is dropped (it used to drop them under the running
 * services, leaving half-seeded demo data and "changed by another request" errors).
 */
describe('db:reset under a running stack', () => {
  const ctx = f.useAdmin();

  it('refuses, naming the connections, and the data stays', async () => {
    const id = await f.newSettlement(ctx.admin, {
      partnerId: await f.createPartner(ctx.admin, 'INDIVIDUAL'),
      advertiserId: await f.createAdvertiser(ctx.admin),
    });
    await expect(cli('db:reset')).rejects.toThrow(
      /db:reset refused: \d+ connection\(s\) use the databases: .*pid \d+.* on (lens|settlement)/,
    );
    const still = await f.expectOk(f.call('GET', f.adminPath(id), ctx.admin));
    expect(still.id).toBe(id);
  });
});
