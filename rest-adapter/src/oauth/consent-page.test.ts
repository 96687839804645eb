import { describe, expect, it } from 'vitest';
import { lensOperationList } from '@campaign/schema';
import { consentPage, consentPageCsp } from './consent-page.js';

describe('consent page', () => {
  const view = {
    uid: 'abc',
    clientName: '<script>alert(1)</script> Assistant',
    redirectUri: 'http://127.0.0.1:5000/callback',
    resource: 'http://127.0.0.1:8080/mcp',
    requested: ['accounts.profile'],
  };

  it('has one checkbox per operation, the requested ones checked, and says Approve and Deny', () => {
    const html = consentPage(view);
    expect(html.match(/name="operation"/g)).toHaveLength(lensOperationList.length);
    expect(html).toContain('value="accounts.profile" checked');
    expect(html).not.toContain('value="accounts.posts" checked');
    expect(html).toContain('type="password" name="credential"');
    expect(html).toMatch(/<button[^>]*value="approve">Approve<\/button>/);
    expect(html).toMatch(/<button[^>]*value="deny"[^>]*>Deny<\/button>/);
  });

  it('escapes what the client registered', () => {
    const html = consentPage(view);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; Assistant');
  });

  it('allows no script, no outside file, and posts only here and back to the client', () => {
    const csp = consentPageCsp(view.redirectUri);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("form-action 'self' http://127.0.0.1:5000/callback");
    expect(consentPageCsp('cursor://anysphere.cursor-mcp/oauth/callback')).toContain(
      "form-action 'self' cursor:",
    );
  });
});
