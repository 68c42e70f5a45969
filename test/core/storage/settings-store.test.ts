// The settings and secrets files: defaults, validation, atomic writes, corrupt files left alone, mode 0600.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src/shared/settings';
import { say } from '../../../src/shared/said';
import {
  SettingsFileError,
  SettingsValidationError,
  createSecretStore,
  createSettingsStore,
  resolveAmcHome,
  type SecretCodec,
} from '../../../src/core/storage/settings-store';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-settings-'));
  dirs.push(dir);
  return dir;
}

describe('resolveAmcHome', () => {
  it('AMC_HOME wins; otherwise the OS app-data folder', () => {
    expect(resolveAmcHome({ AMC_HOME: '/data/amc' }, 'linux', '/home/ann')).toBe('/data/amc');
    expect(resolveAmcHome({}, 'linux', '/home/ann')).toBe('/home/ann/.config/agentic-mobile-control');
    expect(resolveAmcHome({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/ann')).toBe('/xdg/agentic-mobile-control');
    expect(resolveAmcHome({}, 'darwin', '/Users/ann')).toBe('/Users/ann/Library/Application Support/agentic-mobile-control');
    expect(resolveAmcHome({ APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'win32', 'C:\\Users\\ann')).toContain('agentic-mobile-control');
  });
});

describe('settings store', () => {
  it('gives the defaults before anything was saved, without creating a file', async () => {
    const dir = await tempDir();
    const store = createSettingsStore(dir);
    expect(await store.load()).toEqual(defaultSettings());
    expect(await readdir(dir)).toEqual([]);
  });

  it('saves a valid change and reads it back; no temporary file is left behind', async () => {
    const dir = await tempDir();
    const store = createSettingsStore(dir);
    const saved = await store.update({ aiPlanner: { enabled: true, maxSteps: 12 }, openai: { baseURL: 'http://localhost:11434/v1' } });
    expect(saved.aiPlanner).toMatchObject({ enabled: true, maxSteps: 12, transport: 'cloud-proxy' });
    expect(await createSettingsStore(dir).load()).toEqual(saved);
    expect(await readdir(dir)).toEqual(['settings.json']);
  });

  it('concurrent updates apply one after the other', async () => {
    const store = createSettingsStore(await tempDir());
    await Promise.all([store.update({ aiPlanner: { maxSteps: 7 } }), store.update({ aiPlanner: { timeoutSeconds: 9 } }), store.update({ adb: { port: 5038 } })]);
    const loaded = await store.load();
    expect(loaded.aiPlanner.maxSteps).toBe(7);
    expect(loaded.aiPlanner.timeoutSeconds).toBe(9);
    expect(loaded.adb.port).toBe(5038);
  });

  it('an invalid change is refused with each problem named, and nothing is written', async () => {
    const dir = await tempDir();
    const store = createSettingsStore(dir);
    await store.update({ aiPlanner: { maxSteps: 10 } });
    const before = await readFile(store.file, 'utf8');
    const error = await store.update({ aiPlanner: { maxSteps: 0 }, controlPlane: { url: 'ftp://x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SettingsValidationError);
    expect((error as SettingsValidationError).problems).toEqual([
      expect.stringMatching(/^aiPlanner\.maxSteps: /),
      expect.stringMatching(/^controlPlane\.url: /),
    ]);
    expect(await readFile(store.file, 'utf8')).toBe(before);
  });

  it('Scenario: A corrupt settings file is reported and left untouched', async () => {
    const dir = await tempDir();
    const store = createSettingsStore(dir);
    await writeFile(store.file, '{ not json');
    await expect(store.load()).rejects.toThrow(SettingsFileError);
    await expect(store.load()).rejects.toThrow(/settings\.json is not valid JSON .* it was not changed/);
    await expect(store.update({ aiPlanner: { enabled: true } })).rejects.toThrow(SettingsFileError);
    expect(await readFile(store.file, 'utf8')).toBe('{ not json');
  });
});

describe('secret store', () => {
  it('Scenario: Secrets live in a file only the user can read', async () => {
    const dir = await tempDir();
    const secrets = createSecretStore(dir);
    await secrets.set('OPENAI_API_KEY', 'sk-123');
    await secrets.set('CONTROL_PLANE_TOKEN', 'amc_abc');
    expect(await secrets.load()).toEqual({ OPENAI_API_KEY: 'sk-123', CONTROL_PLANE_TOKEN: 'amc_abc' });
    expect((await stat(secrets.file)).mode & 0o777).toBe(0o600);
    await secrets.set('OPENAI_API_KEY', null);
    expect(await secrets.load()).toEqual({ CONTROL_PLANE_TOKEN: 'amc_abc' });
    expect((await stat(secrets.file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['secrets.json']);
  });

  it('uses the codec it is given (e.g. the OS keychain in Electron) and refuses a file written with another', async () => {
    const dir = await tempDir();
    const reversed: SecretCodec = { scheme: 'reversed', description: say('keyStorage.osKeychain'), encode: (v) => [...v].reverse().join(''), decode: (v) => [...v].reverse().join('') };
    await createSecretStore(dir, reversed).set('ANTHROPIC_API_KEY', 'sk-ant-999');
    expect(await readFile(path.join(dir, 'secrets.json'), 'utf8')).not.toContain('sk-ant-999');
    expect(await createSecretStore(dir, reversed).load()).toEqual({ ANTHROPIC_API_KEY: 'sk-ant-999' });
    // A scheme this app never writes is not named: a hand-edited file could hold anything there.
    await expect(createSecretStore(dir).load()).rejects.toThrow(/written with an unknown storage scheme but this process uses "plain"/);
  });
});

describe('storage messages and unknown keys', () => {
  it('Scenario: A hand-edited secrets file with an unquoted value is reported without echoing the key', async () => {
    const dir = await tempDir();
    const secrets = createSecretStore(dir);
    const text = '{\n  "scheme": "plain",\n  "secrets": {\n    "ANTHROPIC_API_KEY":sk-live-SECRET-123\n  }\n}\n';
    await writeFile(secrets.file, text, { mode: 0o600 });
    const error = await secrets.load().then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(SettingsFileError);
    expect(error!.message).toBe(`${secrets.file} is not valid JSON (line 4); fix or delete it — it was not changed`);
    expect(error!.message).not.toMatch(/sk-|SECRET|API_KEY/);
    // A key pasted into the scheme field is not echoed either.
    await writeFile(secrets.file, '{"scheme": "sk-live-SECRET-123", "secrets": {}}', { mode: 0o600 });
    await expect(secrets.load()).rejects.toThrow(/written with an unknown storage scheme/);
    await expect(secrets.load()).rejects.not.toThrow(/sk-live/);
    expect(await readFile(secrets.file, 'utf8')).toContain('sk-live-SECRET-123');
  });

  it('Scenario: Unknown settings keys survive a save', async () => {
    const dir = await tempDir();
    const store = createSettingsStore(dir);
    const stored = { ...defaultSettings(), futureGroup: { colour: 'teal' }, aiPlanner: { ...defaultSettings().aiPlanner, newerKnob: 3 } };
    await writeFile(store.file, JSON.stringify(stored));
    expect(await store.load()).toEqual(defaultSettings());
    await store.update({ aiPlanner: { maxSteps: 12 } });
    const saved = JSON.parse(await readFile(store.file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(saved.futureGroup).toEqual({ colour: 'teal' });
    expect(saved.aiPlanner).toMatchObject({ newerKnob: 3, maxSteps: 12 });
    expect((await store.load()).aiPlanner.maxSteps).toBe(12);
  });
});
