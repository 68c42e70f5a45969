// Settings through the router: validation per field, atomic saves, write-only secrets, environment overrides.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeHome, startTestApp, type TestApp } from './app-fixture';
import type { SettingsProblem } from '../../src/shared/contract';
import { wordsFor } from '../../src/shared/i18n';
import { wordSaid } from '../../src/shared/said';
import { latinSentences } from '../support/latin-sentences';

const apps: TestApp[] = [];
afterEach(async () => {
  // Every app first: two of them may share a data folder, which goes only once neither writes to it.
  const closing = apps.splice(0);
  for (const app of closing) await app.close();
  for (const home of new Set(closing.map((app) => app.home))) await removeHome(home);
});

async function start(env: NodeJS.ProcessEnv = {}): Promise<TestApp> {
  const app = await startTestApp({ env: { PATH: process.env.PATH, ...env } });
  apps.push(app);
  return app;
}

/** A problem as an English reader sees it (its code is for other languages). */
const english = (problems: SettingsProblem[]) => problems.map(({ field, message }) => ({ field, message }));

describe('settings', () => {
  it('Scenario: Settings validation names the field and the reason', async () => {
    const app = await start();
    const tooMany = await app.call('settings.validate', { patch: { aiPlanner: { maxSteps: 0 } } });
    expect(tooMany.valid).toBe(false);
    expect(english(tooMany.problems)).toEqual([{ field: 'aiPlanner.maxSteps', message: 'must be 1 or more' }]);
    const typed = await app.call('settings.validate', { patch: { aiPlanner: { timeoutSeconds: 'abc' } } });
    expect(english(typed.problems)).toEqual([{ field: 'aiPlanner.timeoutSeconds', message: 'must be a number' }]);
    // Every reason is in plain words, never the schema library's ("Too big: expected string to have <=200 characters").
    const plain = await app.call('settings.validate', {
      patch: { aiPlanner: { model: 'm'.repeat(300), thinkingBudgetTokens: 5, screenshotLongEdge: 99_999 }, adb: { host: '', port: 1.5 } },
    });
    expect(english(plain.problems)).toEqual(
      expect.arrayContaining([
        { field: 'aiPlanner.model', message: 'must be at most 200 characters' },
        { field: 'aiPlanner.thinkingBudgetTokens', message: 'must be 1,024 or more' },
        { field: 'aiPlanner.screenshotLongEdge', message: expect.stringMatching(/^must be [\d,]+ or less$/) },
        { field: 'adb.host', message: 'must not be empty' },
        { field: 'adb.port', message: 'must be a whole number' },
      ]),
    );
    const url = await app.call('settings.validate', { patch: { openai: { baseURL: 'localhost:11434' } } });
    expect(english(url.problems)).toEqual([{ field: 'openai.baseURL', message: expect.stringMatching(/http\(s\) URL/) }]);
    const provider = await app.call('settings.validate', { patch: { aiPlanner: { provider: 'mistral' } } });
    expect(english(provider.problems)).toEqual([{ field: 'aiPlanner.provider', message: 'must be one of: anthropic, openai' }]);
    const unknown = await app.call('settings.validate', { patch: { aiPlanner: { colour: 'blue' } } as never });
    expect(english(unknown.problems)).toEqual([{ field: 'aiPlanner.colour', message: 'unknown setting' }]);
    expect((await app.call('settings.validate', { patch: { aiPlanner: { maxSteps: 12 } } })).valid).toBe(true);
    // A rejected update writes nothing.
    const rejected = await app.call('settings.update', { patch: { aiPlanner: { maxSteps: 0, model: 'kept-out' } } });
    expect(rejected).toEqual({ saved: false, problems: [expect.objectContaining({ field: 'aiPlanner.maxSteps' })] });
    expect((await app.call('settings.get', {})).settings.aiPlanner.model).toBe('');
  });

  it("Scenario: A refused setting's reason carries its code, and a Chinese window words it", async () => {
    const app = await start();
    const { problems } = await app.call('settings.validate', {
      patch: { aiPlanner: { model: 'm'.repeat(300), thinkingBudgetTokens: 5, provider: 'mistral', colour: 'blue' }, adb: { host: '', port: 1.5 }, openai: { baseURL: 'localhost:11434' } } as never,
    });
    const chinese = wordsFor('zh-CN');
    const worded = Object.fromEntries(problems.map((problem) => [problem.field, wordSaid(problem.message, problem.said, chinese)]));
    expect(worded).toEqual({ 'aiPlanner.colour': '未知的设置' });
    const shaped = await app.call('settings.validate', {
      patch: { aiPlanner: { model: 'm'.repeat(300), thinkingBudgetTokens: 5, provider: 'mistral' }, adb: { host: '', port: 1.5 }, openai: { baseURL: 'localhost:11434' } },
    });
    const shapedWords = Object.fromEntries(shaped.problems.map((problem) => [problem.field, wordSaid(problem.message, problem.said, chinese)]));
    expect(shapedWords).toEqual({
      'aiPlanner.model': '最多 200 个字符',
      'aiPlanner.thinkingBudgetTokens': '必须大于或等于 1,024',
      'aiPlanner.provider': '必须是以下之一：“anthropic, openai”',
      'adb.host': '不能为空',
      'adb.port': '必须是整数',
      'openai.baseURL': '必须是 HTTP(S) URL',
    });
    for (const reason of Object.values(shapedWords)) expect(latinSentences(reason), reason).toEqual([]);
    // A setting's own text, read entry by entry (prices, device groups): each entry's problem by code.
    const texts = await app.call('settings.validate', { patch: { budget: { priceTable: 'gpt-5.4 cheap' }, fleet: { deviceGroups: 'lab: a\nlab: b' } } });
    const textWords = texts.problems.map((problem) => `${problem.field} ${wordSaid(problem.message, problem.said, chinese)}`);
    expect(textWords).toEqual(['budget.priceTable "gpt-5.4 cheap" 不是 `model input/output` 的形式（模型名，再是每百万 token 输入/输出的美元价格，例如 `gpt-5.4-mini 0.75/4.5`）', 'fleet.deviceGroups 设备组 lab 声明了两次']);
  });

  it('Scenario: A base URL with a user name or password is refused with a plain reason', async () => {
    const app = await start();
    const result = await app.call('settings.update', { patch: { openai: { baseURL: 'https://me:hunter2-password@llm.example.com/v1' } } });
    expect(result.saved).toBe(false);
    expect(result.saved === false && english(result.problems)).toEqual([{ field: 'openai.baseURL', message: expect.stringMatching(/must not carry a user name or password/) }]);
    expect(JSON.stringify(result)).not.toContain('hunter2-password');
    expect((await app.call('settings.get', {})).settings.openai.baseURL).toBe('');
    // The same from the environment: the variable is named, the password is not printed.
    const fromEnv = await start({ ANTHROPIC_BASE_URL: 'https://me:hunter2-password@llm.example.com' });
    const view = JSON.stringify(await fromEnv.call('settings.get', {}));
    expect(view).toMatch(/ANTHROPIC_BASE_URL must not carry a user name or password/);
    expect(view).not.toContain('hunter2-password');
  });

  it('Scenario: A valid change is saved atomically, announced, and survives a restart', async () => {
    const app = await start();
    const result = await app.call('settings.update', { patch: { aiPlanner: { maxSteps: 12, model: 'my-model' }, adb: { port: 5038 } } });
    expect(result.saved).toBe(true);
    if (!result.saved) return;
    expect(result.view.settings.aiPlanner).toMatchObject({ maxSteps: 12, model: 'my-model', enabled: false });
    await app.waitForEvent('settings.changed', (view) => view.settings.aiPlanner.maxSteps === 12);
    const file = JSON.parse(await readFile(path.join(app.home, 'settings.json'), 'utf8'));
    expect(file.aiPlanner.maxSteps).toBe(12);
    // A second patch changes only what it names.
    await app.call('settings.update', { patch: { aiPlanner: { sendScreenshot: false } } });
    const again = await startTestApp({ env: { PATH: process.env.PATH }, home: app.home });
    apps.push(again);
    expect((await again.call('settings.get', {})).settings.aiPlanner).toMatchObject({ maxSteps: 12, model: 'my-model', sendScreenshot: false });
  });

  it('Scenario: Secrets are write-only and kept in a file only the user can read', async () => {
    const app = await start();
    const secret = 'sk-test-0123456789-abcdef';
    const view = await app.call('settings.setSecret', { name: 'OPENAI_API_KEY', value: secret });
    expect(view.secrets).toEqual({ ANTHROPIC_API_KEY: 'not set', OPENAI_API_KEY: 'set', CONTROL_PLANE_TOKEN: 'not set', AMC_FLEET_REDIS: 'not set' });
    const mode = (await stat(path.join(app.home, 'secrets.json'))).mode & 0o777;
    expect(mode).toBe(0o600);
    await app.call('settings.get', {});
    await app.call('settings.validate', { patch: { openai: { baseURL: secret } } });
    const invalid = await app.fail('settings.setSecret', { name: 'NOT_A_KEY', value: secret });
    expect(invalid.code).toBe('invalid_input');
    expect(app.transcript()).not.toContain(secret);
    const cleared = await app.call('settings.setSecret', { name: 'OPENAI_API_KEY', value: null });
    expect(cleared.secrets.OPENAI_API_KEY).toBe('not set');
  });

  it('Scenario: Environment variables override settings and the view says which', async () => {
    const app = await start({ AI_PLANNER_MODEL: 'env-model', CONTROL_PLANE_TOKEN: 'env-token-value-123', ANDROID_ADB_SERVER_PORT: '5999' });
    const view = await app.call('settings.get', {});
    expect(view.effective.aiPlanner.model).toBe('env-model');
    expect(view.settings.aiPlanner.model).toBe('');
    expect(view.effective.adb.port).toBe(5999);
    expect(view.envOverrides).toEqual(['AI_PLANNER_MODEL', 'CONTROL_PLANE_TOKEN', 'ANDROID_ADB_SERVER_PORT']);
    expect(view.overriddenFields).toEqual({
      'aiPlanner.model': 'AI_PLANNER_MODEL',
      'secrets.CONTROL_PLANE_TOKEN': 'CONTROL_PLANE_TOKEN',
      'adb.port': 'ANDROID_ADB_SERVER_PORT',
    });
    expect(view.secrets.CONTROL_PLANE_TOKEN).toBe('set');
    expect(view.problem).toBeNull();
    expect(app.transcript()).not.toContain('env-token-value-123');
  });

  it('Scenario: One invalid variable leaves the valid overrides in effect for the device list and Settings', async () => {
    const app = await start({ ANDROID_ADB_SERVER_PORT: '5999', TASK_LOOP_WARN_AFTER: '35' });
    const list = await app.call('devices.list', {});
    expect(list.adbServer).toMatch(/:5999$/);
    const view = await app.call('settings.get', {});
    expect(view.effective.adb.port).toBe(5999);
    expect(view.envOverrides).toEqual(['ANDROID_ADB_SERVER_PORT']);
    expect(view.problem).toMatch(/TASK_LOOP_WARN_AFTER must be a whole number from \d+ to 20/);
    const run = await app.fail('tasks.run', { serial: 'emulator-5554', goal: 'anything' });
    expect(run.message).toMatch(/TASK_LOOP_WARN_AFTER/);
  });

  it('reports a broken environment or settings file instead of failing', async () => {
    const app = await start({ AI_PLANNER_MAX_STEPS: 'many' });
    const view = await app.call('settings.get', {});
    expect(view.problem).toMatch(/AI_PLANNER_MAX_STEPS must be a whole number/);
    const run = await app.fail('tasks.run', { serial: 'emulator-5554', goal: 'anything' });
    expect(run.message).toMatch(/ConfigError: AI_PLANNER_MAX_STEPS/);
  });
});
