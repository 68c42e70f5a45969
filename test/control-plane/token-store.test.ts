import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenStoreError, TokenVerifier, createToken, listTokens, revokeToken } from '../../src/control-plane/token-store';
import { TokenBucketRateLimiter } from '../../src/control-plane/rate-limiter';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-tokens-'));
  file = path.join(dir, 'nested', 'tokens.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('token store', () => {
  it('Scenario: Token store keeps only hashes', async () => {
    const { token, record } = await createToken(file, { name: 'laptop' });
    expect(token).toMatch(/^amc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(token.startsWith(`amc_${record.id}_`)).toBe(true);
    const text = await readFile(file, 'utf8');
    const secret = token.slice(`amc_${record.id}_`.length);
    expect(text).not.toContain(secret);
    expect(text).toContain(record.id);
    expect(text).toMatch(/"hash": "sha256:[0-9a-f]{64}"/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [listed] = await listTokens(file);
    expect(listed).toMatchObject({ id: record.id, name: 'laptop', revokedAt: null });
    // No temp files are left next to the store.
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(path.dirname(file))).toEqual(['tokens.json']);
  });

  it('verifies the right token and tells missing, malformed, unknown, wrong and revoked apart', async () => {
    const { token, record } = await createToken(file, { provider: 'openai', model: 'gpt-x' });
    const verifier = new TokenVerifier(file, 0);
    await verifier.load();
    const ok = await verifier.verify(`Bearer ${token}`);
    expect(ok).toEqual({ ok: true, record: expect.objectContaining({ id: record.id, provider: 'openai', model: 'gpt-x' }) });
    expect(await verifier.verify(`bearer   ${token}  `)).toMatchObject({ ok: true });
    expect(await verifier.verify(undefined)).toEqual({ ok: false, reason: 'missing' });
    expect(await verifier.verify(`Basic ${token}`)).toEqual({ ok: false, reason: 'missing' });
    expect(await verifier.verify('Bearer amc_short')).toEqual({ ok: false, reason: 'malformed' });
    const secret = token.split('_').slice(2).join('_');
    expect(await verifier.verify(`Bearer amc_ffffffffffffffff_${secret}`)).toEqual({ ok: false, reason: 'unknown' });
    const wrong = `amc_${record.id}_${secret.startsWith('A') ? 'B' : 'A'}${secret.slice(1)}`;
    expect(await verifier.verify(`Bearer ${wrong}`)).toEqual({ ok: false, reason: 'mismatch', tokenId: record.id });
    await revokeToken(file, record.id);
    expect(await verifier.verify(`Bearer ${token}`)).toEqual({ ok: false, reason: 'revoked', tokenId: record.id });
  });

  it('keeps the first revocation time and refuses unknown ids', async () => {
    const { record } = await createToken(file);
    const first = await revokeToken(file, record.id);
    const second = await revokeToken(file, record.id);
    expect(second.revokedAt).toBe(first.revokedAt);
    await expect(revokeToken(file, 'nope')).rejects.toThrow(/no token with id or name "nope"/);
  });

  it('refuses a corrupt store with a clear error and keeps serving the last good tokens', async () => {
    const { token } = await createToken(file);
    const reloadErrors: string[] = [];
    const verifier = new TokenVerifier(file, 0, (error) => reloadErrors.push(error.message));
    await verifier.load();
    await writeFile(file, '{"version": 1, "tokens": [{"id": 5}]}');
    expect(await verifier.verify(`Bearer ${token}`)).toMatchObject({ ok: true });
    expect(reloadErrors[0]).toContain('is not a valid token store');
    await expect(new TokenVerifier(file).load()).rejects.toBeInstanceOf(TokenStoreError);
    await writeFile(file, 'not json');
    await expect(listTokens(file)).rejects.toThrow(/not valid JSON/);
  });

  it('treats a missing store as empty', async () => {
    expect(await listTokens(file)).toEqual([]);
    const verifier = new TokenVerifier(file, 0);
    await verifier.load();
    expect(verifier.tokenCount).toBe(0);
  });
});

describe('token bucket rate limiter', () => {
  it('allows the burst, then refills at the sustained rate', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 3 }, () => now);
    expect([1, 2, 3].map(() => limiter.take('a').allowed)).toEqual([true, true, true]);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(limiter.take('b').allowed).toBe(true);
    now += 1000;
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a').allowed).toBe(false);
  });

  it('reports how long until the next request fits', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 2, burst: 1 }, () => now);
    expect(limiter.take('a').allowed).toBe(true);
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    now += 20_000;
    expect(limiter.take('a')).toEqual({ allowed: false, retryAfterSeconds: 10 });
  });

  it('forgets buckets that refilled, so memory stays bounded by active tokens', () => {
    let now = 0;
    const limiter = new TokenBucketRateLimiter({ requestsPerMinute: 60, burst: 5 }, () => now);
    for (let i = 0; i < 100; i++) limiter.take(`token-${i}`);
    expect(limiter.size).toBe(100);
    now += 120_000;
    limiter.take('fresh');
    expect(limiter.size).toBe(1);
  });
});
