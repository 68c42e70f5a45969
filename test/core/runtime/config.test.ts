// Configuration: stored settings + secrets + environment overrides, validated all at once.
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, SettingsViewSchema } from '../../../src/shared/settings';
import { ConfigError, aiPlannerSetup, createConfigSource, missingForAiPlanner, resolveRuntimeConfig } from '../../../src/core/runtime/config';
import { SettingsFileError } from '../../../src/core/storage/settings-store';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempHome(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-config-'));
  dirs.push(dir);
  return dir;
}

const stored = () => ({ settings: defaultSettings(), secrets: {} });

describe('resolveRuntimeConfig', () => {
  it('without environment variables the stored settings apply: AI planner off, cloud-proxy, 30 s, 30 steps', () => {
    const config = resolveRuntimeConfig(stored(), {});
    expect(config.settings.aiPlanner).toMatchObject({ enabled: false, transport: 'cloud-proxy', timeoutSeconds: 30, maxSteps: 30, thinkingBudgetTokens: null });
    expect(config.envOverrides).toEqual([]);
  });

  it('Scenario: Environment variables override settings', () => {
    const env = {
      AI_PLANNER_ENABLED: 'TRUE',
      AI_PLANNER_PROVIDER: 'openai',
      AI_PLANNER_MODEL: 'qwen2.5-vl',
      AI_PLANNER_TRANSPORT: 'direct',
      AI_PLANNER_TIMEOUT_SECONDS: '45',
      AI_PLANNER_THINKING_BUDGET_TOKENS: '2048',
      AI_PLANNER_MAX_STEPS: '12',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      OPENAI_API_KEY: 'sk-oai-x',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9000',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      CONTROL_PLANE_URL: 'https://cp.example.com',
      CONTROL_PLANE_TOKEN: 'amc_token',
    };
    const config = resolveRuntimeConfig(stored(), env);
    expect(config.settings.aiPlanner).toMatchObject({ enabled: true, provider: 'openai', model: 'qwen2.5-vl', transport: 'direct', timeoutSeconds: 45, thinkingBudgetTokens: 2048, maxSteps: 12 });
    expect(config.settings.anthropic.baseURL).toBe('http://127.0.0.1:9000');
    expect(config.settings.openai.baseURL).toBe('http://localhost:11434/v1');
    expect(config.settings.controlPlane.url).toBe('https://cp.example.com');
    expect(config.secrets).toEqual({ ANTHROPIC_API_KEY: 'sk-ant-x', OPENAI_API_KEY: 'sk-oai-x', CONTROL_PLANE_TOKEN: 'amc_token' });
    expect(config.envOverrides).toEqual(Object.keys(env));
    expect(aiPlannerSetup(config)).toMatchObject({ provider: 'openai', model: 'qwen2.5-vl', timeoutMs: 45_000, thinkingBudgetTokens: 2048 });
  });

  it('Scenario: Invalid environment values are reported by name with the accepted values', () => {
    const env = {
      AI_PLANNER_ENABLED: 'maybe',
      AI_PLANNER_PROVIDER: 'gemini',
      AI_PLANNER_TRANSPORT: 'carrier-pigeon',
      AI_PLANNER_TIMEOUT_SECONDS: '0',
      AI_PLANNER_THINKING_BUDGET_TOKENS: '100',
      AI_PLANNER_MAX_STEPS: 'ten',
      OPENAI_BASE_URL: 'localhost:11434',
    };
    let error: unknown;
    try {
      resolveRuntimeConfig(stored(), env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      'AI_PLANNER_ENABLED must be one of true, false, 1, 0, yes, no (got "maybe")',
      'AI_PLANNER_PROVIDER must be one of anthropic, openai (got "gemini")',
      'AI_PLANNER_TRANSPORT must be one of cloud-proxy, direct (got "carrier-pigeon")',
      'AI_PLANNER_TIMEOUT_SECONDS must be a whole number from 1 to 600 (got "0")',
      'AI_PLANNER_THINKING_BUDGET_TOKENS must be a whole number from 1024 to 32000, or 0/off to disable thinking (got "100")',
      'AI_PLANNER_MAX_STEPS must be a whole number from 1 to 500 (got "ten")',
      'OPENAI_BASE_URL must be an http(s) URL (got "localhost:11434")',
    ]);
    expect((error as Error).message).toContain('AI_PLANNER_PROVIDER must be one of anthropic, openai');
  });

  it('empty variables count as unset; "off" disables thinking', () => {
    const withBudget = { settings: { ...defaultSettings(), aiPlanner: { ...defaultSettings().aiPlanner, thinkingBudgetTokens: 4096 } }, secrets: {} };
    const config = resolveRuntimeConfig(withBudget, { AI_PLANNER_PROVIDER: '', AI_PLANNER_THINKING_BUDGET_TOKENS: 'off' });
    expect(config.settings.aiPlanner.provider).toBe('anthropic');
    expect(config.settings.aiPlanner.thinkingBudgetTokens).toBeNull();
    expect(config.envOverrides).toEqual(['AI_PLANNER_THINKING_BUDGET_TOKENS']);
  });

  it('an enabled AI planner without its credentials says exactly what is missing', () => {
    const direct = resolveRuntimeConfig(stored(), { AI_PLANNER_ENABLED: '1', AI_PLANNER_TRANSPORT: 'direct' });
    expect(missingForAiPlanner(direct)).toEqual(['the AI planner is incomplete: Anthropic API key is not set (Settings → Direct access)']);
    const proxy = resolveRuntimeConfig(stored(), { AI_PLANNER_ENABLED: '1', CONTROL_PLANE_URL: 'http://127.0.0.1:1' });
    expect(missingForAiPlanner(proxy)).toEqual(['the AI planner is incomplete: Control-plane token is not set (Settings → Cloud control plane)']);
    expect(missingForAiPlanner(resolveRuntimeConfig(stored(), {}))).toEqual([]);
  });
});

describe('createConfigSource', () => {
  it('reads settings and secrets from AMC_HOME and applies the environment on top', async () => {
    const home = await tempHome();
    const source = createConfigSource({ env: { AMC_HOME: home, AI_PLANNER_MAX_STEPS: '9' } });
    await source.settingsStore.update({ aiPlanner: { enabled: true, maxSteps: 20, model: 'stored-model' } });
    await source.secretStore.set('ANTHROPIC_API_KEY', 'sk-stored');
    const config = await source.load();
    expect(source.settingsStore.file).toBe(path.join(home, 'settings.json'));
    expect(config.settings.aiPlanner).toMatchObject({ enabled: true, maxSteps: 9, model: 'stored-model' });
    expect(config.secrets.ANTHROPIC_API_KEY).toBe('sk-stored');
  });

  it('Scenario: The settings view never contains a secret', async () => {
    const home = await tempHome();
    const source = createConfigSource({ env: { AMC_HOME: home, OPENAI_API_KEY: 'sk-from-env-123', AI_PLANNER_MODEL: 'm-env' } });
    await source.secretStore.set('ANTHROPIC_API_KEY', 'sk-ant-stored-456');
    const view = await source.view();
    expect(SettingsViewSchema.parse(view)).toEqual(view);
    expect(view.secrets).toEqual({ ANTHROPIC_API_KEY: 'set', OPENAI_API_KEY: 'set', CONTROL_PLANE_TOKEN: 'not set', AMC_FLEET_REDIS: 'not set' });
    expect(view.envOverrides).toEqual(['AI_PLANNER_MODEL', 'OPENAI_API_KEY']);
    expect(view.settings.aiPlanner.model).toBe('');
    expect(view.effective.aiPlanner.model).toBe('m-env');
    expect(view.folder).toBe(home);
    const text = JSON.stringify(view);
    expect(text).not.toContain('sk-from-env-123');
    expect(text).not.toContain('sk-ant-stored-456');
  });

  it('a corrupt settings file is a clear error and stays as it was', async () => {
    const home = await tempHome();
    await writeFile(path.join(home, 'settings.json'), '{"aiPlanner": {"maxSteps": "lots"}}');
    const source = createConfigSource({ env: { AMC_HOME: home } });
    await expect(source.load()).rejects.toThrow(SettingsFileError);
    await expect(source.load()).rejects.toThrow(/aiPlanner\.maxSteps/);
  });
});

describe('secrets file', () => {
  it('Scenario: A secrets file others can read is made private before it is used', async () => {
    const home = await tempHome();
    const file = path.join(home, 'secrets.json');
    await writeFile(file, JSON.stringify({ scheme: 'plain', secrets: { OPENAI_API_KEY: 'sk-copied-in' } }));
    await chmod(file, 0o644);
    const config = await createConfigSource({ home, env: {} }).load();
    expect(config.secrets).toEqual({ OPENAI_API_KEY: 'sk-copied-in' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
