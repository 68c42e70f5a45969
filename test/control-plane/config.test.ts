import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlPlaneConfigError, loadControlPlaneConfig, loadProviderKeys } from '../../src/control-plane/config';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'amc-cp-config-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function configFile(content: unknown): Promise<string> {
  const file = path.join(dir, 'control-plane.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('control plane configuration', () => {
  it('has safe defaults', async () => {
    const config = await loadControlPlaneConfig({ env: {}, cwd: dir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      provider: 'anthropic',
      tokensFile: path.join(dir, 'control-plane', 'tokens.json'),
      upstreamTimeoutMs: 25_000,
      rateLimit: { requestsPerMinute: 120, burst: 20 },
    });
    expect(config.model).toMatch(/claude/);
    expect((await loadControlPlaneConfig({ env: { AMC_CP_PROVIDER: 'openai' }, cwd: dir })).model).toMatch(/gpt/);
  });

  it('Scenario: Environment overrides the config file', async () => {
    const file = await configFile({
      port: 9000,
      host: '0.0.0.0',
      provider: 'openai',
      model: 'gpt-from-file',
      tokensFile: 'state/tokens.json',
      openaiBaseUrl: 'http://127.0.0.1:1/v1',
      rateLimit: { requestsPerMinute: 30, burst: 5 },
      upstreamTimeoutSeconds: 12,
    });
    const env = { AMC_CP_PORT: '9100', AMC_CP_MODEL: 'gpt-from-env', AMC_CP_RATE_LIMIT_BURST: '9' };
    const config = await loadControlPlaneConfig({ configFile: file, env, cwd: '/' });
    expect(config).toMatchObject({
      port: 9100,
      host: '0.0.0.0',
      provider: 'openai',
      model: 'gpt-from-env',
      // Relative to the config file, not to the working directory.
      tokensFile: path.join(dir, 'state', 'tokens.json'),
      baseUrls: { openai: 'http://127.0.0.1:1/v1' },
      rateLimit: { requestsPerMinute: 30, burst: 9 },
      upstreamTimeoutMs: 12_000,
    });
    const flagged = await loadControlPlaneConfig({ configFile: file, env, overrides: { port: 0, host: '127.0.0.1' } });
    expect(flagged).toMatchObject({ port: 0, host: '127.0.0.1' });
  });

  it('Scenario: Invalid setting is named in the error', async () => {
    await expect(loadControlPlaneConfig({ env: { AMC_CP_PORT: 'eighty' } })).rejects.toThrow(/AMC_CP_PORT="eighty"/);
    await expect(loadControlPlaneConfig({ env: { AMC_CP_PROVIDER: 'gemini' } })).rejects.toThrow(/AMC_CP_PROVIDER="gemini"/);
    await expect(loadControlPlaneConfig({ env: { AMC_CP_RATE_LIMIT_BURST: '0' } })).rejects.toThrow(/AMC_CP_RATE_LIMIT_BURST/);
    const file = await configFile({ port: 70000, rateLimit: { burst: 'lots' }, colour: 'blue' });
    const error = await loadControlPlaneConfig({ configFile: file, env: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ControlPlaneConfigError);
    expect((error as Error).message).toContain('port');
    expect((error as Error).message).toContain('rateLimit.burst');
    expect((error as Error).message).toContain('colour');
    await expect(loadControlPlaneConfig({ configFile: await configFile('{ nope'), env: {} })).rejects.toThrow(/cannot read config file/);
    await expect(loadControlPlaneConfig({ configFile: path.join(dir, 'missing.json'), env: {} })).rejects.toThrow(/missing\.json/);
    // Flags follow the same rules, named as typed; a secret flag is named, never quoted.
    const badFlags = (await loadControlPlaneConfig({ env: {}, overrides: { redisUrl: 'nota:hunter2@url', metricsToken: 'abc' } }).catch((e: unknown) => e)) as Error;
    expect(badFlags).toBeInstanceOf(ControlPlaneConfigError);
    expect(badFlags.message).toBe('invalid option: --redis: must start with redis:// or rediss://; --metrics-token: must be at least 16 characters');
    await expect(loadControlPlaneConfig({ env: {}, overrides: { host: '' } })).rejects.toThrow(/^invalid option: --host "": /);
  });

  it('Scenario: Provider key in the config file is refused', async () => {
    const file = await configFile({ provider: 'openai', openaiApiKey: 'sk-in-the-wrong-place' });
    const error = (await loadControlPlaneConfig({ configFile: file, env: {} }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ControlPlaneConfigError);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain('sk-in-the-wrong-place');
  });
});

describe('scale-out settings', () => {
  it('reads Redis, workers, limits and quotas from file, environment and flags, and names a bad value', async () => {
    const file = await configFile({ quotas: { daily: { tokens: 1000 } }, pricing: { m: { inputPerMillion: 3, outputPerMillion: 15 } }, workers: 3 });
    const config = await loadControlPlaneConfig({
      configFile: file,
      env: { AMC_CP_REDIS_URL: 'redis://:pw@10.0.0.5:6379/2', AMC_CP_TRUST_PROXY: 'true', AMC_CP_HEADERS_TIMEOUT_SECONDS: '5' },
      overrides: { workers: 2 },
      defaultTokensFile: path.join(dir, 'home', 'control-plane', 'tokens.json'),
      cwd: dir,
    });
    expect(config).toMatchObject({
      redisUrl: 'redis://:pw@10.0.0.5:6379/2',
      workers: 2,
      trustProxy: true,
      headersTimeoutMs: 5000,
      maxConnections: 4096,
      quotas: { daily: { tokens: 1000 } },
      tokensFile: path.join(dir, 'home', 'control-plane', 'tokens.json'),
    });
    const badUrl = await loadControlPlaneConfig({ env: { AMC_CP_REDIS_URL: 'http://:hunter2@redis' }, cwd: dir }).catch((e: Error) => e);
    expect(badUrl).toBeInstanceOf(ControlPlaneConfigError);
    expect((badUrl as Error).message).toContain('AMC_CP_REDIS_URL: must start with redis:// or rediss://');
    expect((badUrl as Error).message).not.toContain('hunter2');
    const badWorkers = await loadControlPlaneConfig({ env: { AMC_CP_WORKERS: '0' }, cwd: dir }).catch((e: Error) => e);
    expect((badWorkers as Error).message).toContain('AMC_CP_WORKERS="0"');
    const badQuota = await loadControlPlaneConfig({ configFile: await configFile({ quotas: { weekly: {} } }), cwd: dir }).catch((e: Error) => e);
    expect((badQuota as Error).message).toContain('quotas');
  });
});

describe('provider keys', () => {
  it('come from the environment, which wins over the secrets file', async () => {
    const secrets = path.join(dir, 'secrets.json');
    await writeFile(secrets, JSON.stringify({ anthropicApiKey: 'file-anthropic', openaiApiKey: 'file-openai' }), { mode: 0o600 });
    expect(await loadProviderKeys({ env: { AMC_CP_SECRETS_FILE: secrets } })).toEqual({
      anthropic: 'file-anthropic',
      openai: 'file-openai',
    });
    expect(await loadProviderKeys({ env: { OPENAI_API_KEY: 'env-openai' }, secretsFile: secrets })).toEqual({
      anthropic: 'file-anthropic',
      openai: 'env-openai',
    });
    expect(await loadProviderKeys({ env: {} })).toEqual({});
  });

  it('warns about a secrets file others can read and never quotes a key in an error', async () => {
    const secrets = path.join(dir, 'secrets.json');
    await writeFile(secrets, JSON.stringify({ anthropicApiKey: 'sk-ant-visible' }));
    await chmod(secrets, 0o644);
    const warnings: string[] = [];
    await loadProviderKeys({ env: {}, secretsFile: secrets, onInsecureFile: (m) => warnings.push(m) });
    expect(warnings[0]).toContain('chmod 600');

    await writeFile(secrets, JSON.stringify({ anthropicApiKey: 42, extra: 'sk-ant-should-not-show' }));
    const error = (await loadProviderKeys({ env: {}, secretsFile: secrets }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(ControlPlaneConfigError);
    expect(error.message).toContain('anthropicApiKey');
    expect(error.message).not.toContain('sk-ant-should-not-show');
  });
});
