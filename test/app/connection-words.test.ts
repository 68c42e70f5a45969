// "Test connection" answers carry a code beside the English message, so the window says them in its language: a
// wrong key and a fine answer from the real Anthropic SDK against the loopback fake, and a control plane whose
// address does not answer.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, mergeSettings, SettingsSchema, type SettingsPatch } from '../../src/shared/settings';
import { wordsFor } from '../../src/shared/i18n/translate';
import { wordSaid } from '../../src/shared/said';
import { testConnection } from '../../src/app/connection-check';
import type { RuntimeConfig } from '../../src/core/runtime/config';
import type { ConnectionReport } from '../../src/shared/connection-report';
import { finish, startProviderFake, type FakePolicy, type ProviderFake } from '../fakes/index';
import { latinSentences } from '../support/latin-sentences';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

const config = (patch: SettingsPatch, secrets: Record<string, string> = {}): RuntimeConfig => ({
  settings: SettingsSchema.parse(mergeSettings(defaultSettings(), patch)),
  secrets,
  envOverrides: [],
});

async function anthropicAnswering(policy: FakePolicy): Promise<RuntimeConfig> {
  const fake: ProviderFake = await startProviderFake('anthropic', policy);
  cleanups.push(() => fake.close());
  return config({ aiPlanner: { enabled: true, provider: 'anthropic', transport: 'direct', model: 'claude-test' }, anthropic: { baseURL: fake.baseURL } }, { ANTHROPIC_API_KEY: fake.apiKey });
}

const inChinese = (report: ConnectionReport) => wordSaid(report.message, report.said, wordsFor('zh-CN'));

describe('Test connection in the window language', () => {
  it('Scenario: Test connection answers in the window language', async () => {
    const ok = await testConnection(await anthropicAnswering(() => finish(true, 'ok')));
    expect(ok.result).toBe('ok');
    expect(ok.message).toMatch(/^OK: claude-test answered in [\d,]+ ms\.$/);
    expect(inChinese(ok)).toMatch(/^正常：claude-test 在 [\d,]+ 毫秒内回答了。$/);

    const refused = await testConnection(await anthropicAnswering(() => ({ kind: 'http-error', status: 401, message: 'invalid x-api-key' })));
    expect(refused.result).toBe('wrong-key');
    expect(refused.message).toMatch(/^The key or token was refused: .*\(HTTP 401\)/);
    // Which key to check and where, in Chinese too: the client's English sentence is ours, so it is not quoted.
    expect(inChinese(refused)).toBe('密钥或令牌被拒绝：Anthropic 拒绝了 API 密钥（HTTP 401）；请检查 设置 → 直连 里的 Anthropic API 密钥（设置了环境变量 ANTHROPIC_API_KEY 时检查它）');
    expect(latinSentences(inChinese(refused), ['Anthropic', 'API'])).toEqual([]);

    const proxy = config({ aiPlanner: { enabled: true, transport: 'cloud-proxy' }, controlPlane: { url: 'http://127.0.0.1:1' } }, { CONTROL_PLANE_TOKEN: 'token-1' });
    const away = await testConnection(proxy);
    expect(away.result).toBe('unreachable');
    expect(away.message).toMatch(/^Unreachable: the control plane at http:\/\/127\.0\.0\.1:1 did not answer \(.+\); check the Control-plane URL\.$/);
    expect(inChinese(away)).toMatch(/^连接不上：http:\/\/127\.0\.0\.1:1 的控制平面没有回答（.+）；检查控制平面 URL。$/);
  });
});
