import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/app/ipc/router';

const web = { transport: 'web' as const };

describe('router', () => {
  it('Scenario: Valid request reaches its handler', async () => {
    const router = createRouter({ 'app.ping': (input) => ({ nonce: input.nonce, serverTime: 42 }) });
    await expect(router.call('app.ping', { nonce: 'abc' }, web)).resolves.toEqual({
      ok: true,
      value: { nonce: 'abc', serverTime: 42 },
    });
  });

  it('Scenario: Invalid input is refused before any handler runs', async () => {
    let calls = 0;
    const router = createRouter({
      'app.ping': (input) => {
        calls++;
        return { nonce: input.nonce, serverTime: 1 };
      },
    });
    const result = await router.call('app.ping', { nonce: '' , extra: true }, web);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.issues).toEqual(expect.arrayContaining(['nonce: must not be empty']));
    expect(result.error.message).toContain('app.ping');
    expect(calls).toBe(0);
  });

  it('Scenario: Unknown method is refused', async () => {
    const router = createRouter({});
    const result = await router.call('device.format', {}, web);
    expect(result).toEqual({ ok: false, error: { code: 'unknown_method', message: 'Unknown method "device.format".' } });
  });

  it('Scenario: Handler failure becomes a typed error', async () => {
    const router = createRouter({
      'app.info': () => {
        throw new RangeError('adb went away');
      },
    });
    const result = await router.call('app.info', {}, web);
    expect(result).toEqual({ ok: false, error: { code: 'failed', message: 'RangeError: adb went away' } });
  });

  it('Scenario: Answers carry only what the contract declares', async () => {
    const router = createRouter({
      'app.ping': (input) => ({ nonce: input.nonce, serverTime: 7, apiKey: 'sk-secret' }) as never,
    });
    const result = await router.call('app.ping', { nonce: 'n' }, web);
    expect(result).toEqual({ ok: true, value: { nonce: 'n', serverTime: 7 } });
    expect(JSON.stringify(result)).not.toContain('sk-secret');
  });

  it('reports a method the build does not serve as unavailable', async () => {
    const router = createRouter({});
    const result = await router.call('app.info', {}, web);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('unavailable');
  });
});
