import { describe, expect, it } from 'vitest';
import { redactSecrets, registerSecret } from '@amc/provider-clients';

describe('the redaction step', () => {
  it('Scenario: Configured keys and anything shaped like a key or a URL password are redacted', () => {
    registerSecret('plain-configured-key-0042');
    const text = [
      'key plain-configured-key-0042 refused',
      'openai sk-proj-AbCdEf0123456789xyz',
      'anthropic sk-ant-api03-AbCdEf0123456789-xyz',
      'host token amc_0123456789abcdef_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde',
      'header Authorization: Bearer abc.def-ghi_123',
      'server https://admin:s3cret@proxy.example.com/v1 and http://user:@h.example/x',
      'query https://api.example.com/v1?api_key=abc123&model=m',
      'extra one-off-secret-xyz',
    ].join('\n');
    const clean = redactSecrets(text, ['one-off-secret-xyz']);
    for (const secret of ['plain-configured-key-0042', 'sk-proj-', 'sk-ant-api03', 'amc_0123', 'abc.def-ghi_123', 's3cret', 'admin', 'abc123', 'one-off-secret-xyz']) {
      expect(clean).not.toContain(secret);
    }
    // What is not a secret stays readable.
    expect(clean).toContain('https://[redacted]@proxy.example.com/v1');
    expect(clean).toContain('Authorization: Bearer [redacted]');
    expect(clean).toContain('model=m');
    expect(redactSecrets('Tap "Skip" (sk-1) at 12:30, see https://example.com/a?b=c')).toBe('Tap "Skip" (sk-1) at 12:30, see https://example.com/a?b=c');
    // JSON stays JSON.
    expect(JSON.parse(redactSecrets(JSON.stringify({ reason: 'key plain-configured-key-0042 "quoted" sk-abcdefghijklmnop' })))).toEqual({
      reason: 'key [redacted] "quoted" [redacted]',
    });
  });
});
