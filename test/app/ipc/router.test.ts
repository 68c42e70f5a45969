import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../src/app/ipc/router';
import { wordsFor } from '../../../src/shared/i18n';
import { wordSaid } from '../../../src/shared/said';
import { latinSentences } from '../../support/latin-sentences';

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

  it("Scenario: A refused input's issues carry codes, and a Chinese window words each with its field", async () => {
    const unreached = () => {
      throw new Error('the handler ran');
    };
    const router = createRouter({ 'app.ping': unreached, 'devices.pair': unreached });
    const chinese = wordsFor('zh-CN');
    const wordedIssues = async (method: string, input: unknown) => {
      const result = await router.call(method, input, web);
      if (result.ok) throw new Error(`${method} took ${JSON.stringify(input)}`);
      const { issues = [], issuesSaid = [] } = result.error;
      expect(issuesSaid).toHaveLength(issues.length);
      return { english: issues, chinese: issues.map((issue, index) => wordSaid(issue, issuesSaid[index], chinese)) };
    };
    // zod's own kinds (too small, too big, wrong type, a field it does not know) and a schema's own words.
    const ping = await wordedIssues('app.ping', { nonce: '', extra: true });
    expect(ping.english).toEqual(['nonce: must not be empty', 'input: has a field it does not know: extra']);
    expect(ping.chinese).toEqual(['nonce：不能为空', '输入：有不认识的字段：“extra”']);
    const long = await wordedIssues('app.ping', { nonce: 'n'.repeat(129) });
    expect(long.chinese).toEqual(['nonce：最多 128 个字符']);
    const typed = await wordedIssues('app.ping', { nonce: 7 });
    expect(typed.chinese).toEqual(['nonce：必须是文本']);
    const pair = await wordedIssues('devices.pair', { address: 'phone at home', code: '12' });
    expect(pair.english).toEqual(['address: use HOST:PORT, e.g. 192.168.1.20:5555', 'code: the pairing code is 6 digits']);
    expect(pair.chinese).toEqual(['address：请用 HOST:PORT 的形式，例如 192.168.1.20:5555', 'code：配对码是 6 位数字']);
    for (const line of [...ping.chinese, ...long.chinese, ...typed.chinese, ...pair.chinese]) expect(latinSentences(line), line).toEqual([]);
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
