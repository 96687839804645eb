import { describe, expect, it } from 'vitest';
import { scopeConditions } from './scope.js';

/** A default-agency reader that counts its reads (the database read it stands for). */
function countingReader(id = '1') {
  const reader = async () => {
    reader.reads += 1;
    return id;
  };
  reader.reads = 0;
  return reader;
}

describe('scopeConditions', () => {
  it("reads no default agency for a super admin's or a partner's scope", async () => {
    const reader = countingReader();
    expect(await scopeConditions({ agencyId: null, partnerId: null }, reader)).toEqual([]);
    expect(await scopeConditions({ agencyId: null, partnerId: '7' }, reader)).toEqual([
      { partnerId: '7' },
    ]);
    expect(reader.reads).toBe(0);
  });

  it("reads it for an agency's scope: the default agency's rows include those without one", async () => {
    const reader = countingReader('1');
    expect(await scopeConditions({ agencyId: '1', partnerId: null }, reader)).toEqual([
      { $or: [{ agencyId: '1' }, { agencyId: null }] },
    ]);
    expect(await scopeConditions({ agencyId: '2', partnerId: null }, reader)).toEqual([
      { agencyId: '2' },
    ]);
    expect(reader.reads).toBe(2);
  });
});
