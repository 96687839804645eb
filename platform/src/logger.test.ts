import { describe, expect, it } from 'vitest';
import { ConfigError, logFormat } from './config.js';

/** Issue 15: readable lines for a person at a terminal, JSON lines for everything else. */
describe('LOG_FORMAT', () => {
  it('is readable at a terminal and JSON elsewhere when not set (or auto)', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'auto' }, true)).toBe('pretty');
  });

  it('is what it says when set, terminal or not', () => {
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty' }, false)).toBe('pretty');
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => logFormat({ LOG_FORMAT: 'text' }, true)).toThrow(ConfigError);
    expect(() => logFormat({ LOG_FORMAT: 'text' }, true)).toThrow(/LOG_FORMAT/);
  });
});
