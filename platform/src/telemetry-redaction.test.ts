import { describe, expect, it } from 'vitest';
import { redactedQuery, redactedUrl, sanitizedSql } from './telemetry-redaction.js';

describe('what a span may show', () => {
  it('keeps query parameter names, never their values', () => {
    expect(redactedQuery('from=2026-01-01&to=2026-01-31&state=s3cr3t')).toBe('from=?&to=?&state=?');
  });

  it('hides token-like path segments, credentials and query values of outgoing URLs', () => {
    expect(
      redactedUrl('https://hooks.chat.example/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX'),
    ).toBe('https://hooks.chat.example/services/T0000/B0000/{redacted}');
    expect(redactedUrl('http://user:pw@127.0.0.1:4100/accounts/3333017654321?token=abc')).toBe(
      'http://127.0.0.1:4100/accounts/{redacted}?token=?',
    );
    expect(redactedUrl('http://127.0.0.1:4100/v1/users/hana/profile')).toBe(
      'http://127.0.0.1:4100/v1/users/hana/profile',
    );
  });

  it('replaces SQL literals with ? and keeps placeholders, identifiers and casts', () => {
    expect(
      sanitizedSql(
        `select * from "outbox" where dedupe_key = 'k''ey-1' and attempts > 3 and id = $1::int and t1.x = E'\\n' and body = $tag$secret$tag$`,
      ),
    ).toBe(
      `select * from "outbox" where dedupe_key = ? and attempts > ? and id = $1::int and t1.x = ? and body = ?`,
    );
    expect(sanitizedSql(`insert into t (a, b) values ('x@y.example', -12.5)`)).toBe(
      `insert into t (a, b) values (?, ?)`,
    );
  });
});
