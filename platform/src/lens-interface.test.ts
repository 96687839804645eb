import { describe, expect, it } from 'vitest';
import { PROXY_SECRET_HEADER } from './client-address.js';
import { LENS_INTERFACE_HEADER, lensInterfaceOf, vouchedLensInterface } from './lens-interface.js';

const SECRET = 'a-proxy-secret-of-16+';

describe('the lens interface header (tool tokens only through the MCP front)', () => {
  it('the gateway passes mcp on only from a caller with the proxy secret', () => {
    const mcp = { [LENS_INTERFACE_HEADER]: 'mcp' };
    expect(vouchedLensInterface({ ...mcp, [PROXY_SECRET_HEADER]: SECRET }, SECRET)).toBe('mcp');
    expect(vouchedLensInterface(mcp, SECRET)).toBeUndefined();
    expect(
      vouchedLensInterface({ ...mcp, [PROXY_SECRET_HEADER]: 'a-guess-of-16-chars' }, SECRET),
    ).toBeUndefined();
    expect(
      vouchedLensInterface({ ...mcp, [PROXY_SECRET_HEADER]: [SECRET, SECRET] }, SECRET),
    ).toBeUndefined();
    expect(
      vouchedLensInterface(
        { [LENS_INTERFACE_HEADER]: 'MCP', [PROXY_SECRET_HEADER]: SECRET },
        SECRET,
      ),
    ).toBeUndefined();
  });

  it('lens reads anything but exactly "mcp" as REST', () => {
    expect(lensInterfaceOf('mcp')).toBe('mcp');
    for (const value of [undefined, '', 'rest', 'mcp, mcp', ['mcp', 'mcp']])
      expect(lensInterfaceOf(value)).toBe('rest');
  });
});
