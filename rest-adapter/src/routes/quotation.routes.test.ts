import { describe, expect, it } from 'vitest';
import { fileResponse } from './quotation.routes.js';
import { noBody } from './settlement-fields.js';

describe('quotation files over REST', () => {
  it('sends the bytes GraphQL carried in base64, with type and download name', () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff]);
    expect(
      fileResponse({
        fileName: 'QUO7-Spring-launch.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        base64: bytes.toString('base64'),
      }),
    ).toEqual({
      status: 200,
      body: bytes,
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': 'attachment; filename="QUO7-Spring-launch.xlsx"',
      },
    });
  });

  it('paths without a body take none, or {}', () => {
    expect(noBody(undefined)).toBeNull();
    expect(noBody(null)).toBeNull();
    expect(noBody({})).toBeNull();
    for (const body of [{ reason: 'x' }, [], 'text', 1])
      expect(noBody(body)).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });
});
