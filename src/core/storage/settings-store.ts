import { chmod, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeSyncedSibling } from './synced-file';
import { say, type Saying } from '../../shared/said';
import {
  SECRET_NAMES,
  SettingsPatchSchema,
  SettingsSchema,
  describeIssues,
  mergeSettings,
  type SecretName,
  type Settings,
  type SettingsPatch,
} from '../../shared/settings';

const APP_FOLDER = 'agentic-mobile-control';
export const SETTINGS_FILE = 'settings.json';
export const SECRETS_FILE = 'secrets.json';

/**
 * The folder for settings and data: `AMC_HOME` when set, otherwise the OS's app-data folder
 * (Linux `$XDG_CONFIG_HOME` or `~/.config`, macOS `~/Library/Application Support`, Windows `%APPDATA%`).
 */
export function resolveAmcHome(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.AMC_HOME?.trim()) return path.resolve(env.AMC_HOME.trim());
  if (platform === 'win32') return path.join(env.APPDATA?.trim() || path.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_FOLDER);
  return path.join(env.XDG_CONFIG_HOME?.trim() || path.join(home, '.config'), APP_FOLDER);
}

/** A settings or secrets file that exists but cannot be used; it is left untouched for the person to fix. */
export class SettingsFileError extends Error {
  override name = 'SettingsFileError';
}

/** A requested change that does not validate; nothing was written. */
export class SettingsValidationError extends Error {
  override name = 'SettingsValidationError';
  constructor(readonly problems: string[]) {
    super(`invalid settings: ${problems.join('; ')}`);
  }
}

/** Write to a temporary file in the same folder, flush, then rename over the target: readers see old or new, never half. */
export async function writeFileAtomic(file: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = await writeSyncedSibling(file, text, mode);
  try {
    await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

async function readJson(file: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the mistake, which in secrets.json is part of a key.
    throw new SettingsFileError(`${file} is not valid JSON${lineOfFirstMistake(text)}; fix or delete it — it was not changed`);
  }
}

/** Where JSON.parse gives up, as " (line N)", found by parsing ever longer prefixes; never the text itself. */
function lineOfFirstMistake(text: string): string {
  const lines = text.split('\n');
  for (let count = 1; count <= lines.length; count++) {
    if (!couldStillBeJson(lines.slice(0, count).join('\n'))) return ` (line ${count})`;
  }
  return ' (it ends before the JSON is complete)';
}

/** False when no continuation of this prefix can be valid JSON (the parser failed before reaching its end). */
function couldStillBeJson(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (/end of JSON input|Unterminated string/i.test(message)) return true;
    const position = /at position (\d+)/.exec(message);
    return position !== null && Number(position[1]) >= prefix.trimEnd().length;
  }
}

/** Keys of the stored file that this version does not know (a newer version's, a hand-added note): kept on save. */
function withUnknownKeysOf(stored: unknown, settings: Settings): Record<string, unknown> {
  if (!isPlainObject(stored)) return settings;
  const merged: Record<string, unknown> = { ...stored, ...settings };
  for (const [group, values] of Object.entries(settings)) {
    const storedGroup = stored[group];
    if (isPlainObject(storedGroup)) merged[group] = { ...storedGroup, ...values };
  }
  return merged;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One queue per store so concurrent updates apply in order, each on top of the previous one. */
function serialize() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

export interface SettingsStore {
  readonly folder: string;
  readonly file: string;
  /** The stored settings (defaults when the file does not exist yet). A corrupt file throws SettingsFileError. */
  load(): Promise<Settings>;
  /** Validates the merged result, writes it atomically and returns it. Invalid -> SettingsValidationError, nothing written. */
  update(patch: SettingsPatch): Promise<Settings>;
}

export function createSettingsStore(folder: string): SettingsStore {
  const file = path.join(folder, SETTINGS_FILE);
  const queue = serialize();

  async function load(): Promise<Settings> {
    return parseStored(await readJson(file));
  }

  function parseStored(json: unknown): Settings {
    if (json === undefined) return SettingsSchema.parse({});
    const parsed = SettingsSchema.safeParse(json);
    if (!parsed.success) {
      throw new SettingsFileError(`${file} has invalid settings (${describeIssues(parsed.error).join('; ')}); fix or delete it — it was not changed`);
    }
    return parsed.data;
  }

  return {
    folder,
    file,
    load,
    update: (patch) =>
      queue(async () => {
        const checkedPatch = SettingsPatchSchema.safeParse(patch);
        if (!checkedPatch.success) throw new SettingsValidationError(describeIssues(checkedPatch.error));
        const stored = await readJson(file);
        const next = SettingsSchema.safeParse(mergeSettings(parseStored(stored), checkedPatch.data));
        if (!next.success) throw new SettingsValidationError(describeIssues(next.error));
        await writeFileAtomic(file, `${JSON.stringify(withUnknownKeysOf(stored, next.data), null, 2)}\n`);
        return next.data;
      }),
  };
}

/**
 * How secrets are kept at rest. The default stores them as they are in a file only the user can read
 * (mode 0600); the Electron shell can pass one backed by the OS keychain (safeStorage).
 */
export interface SecretCodec {
  readonly scheme: string;
  /** Where and how keys are kept, in plain words for the Settings screen (with its code for the window's language). */
  readonly description: Saying;
  encode(plain: string): string;
  decode(stored: string): string;
}

/** Keys as they are in the 0600 file; `noKeychain` says no OS keychain could be used (shown in Settings). */
export function plainSecretCodec(noKeychain = false): SecretCodec {
  const description = say(noKeychain ? 'keyStorage.plainNoKeychain' : 'keyStorage.plain', { file: SECRETS_FILE });
  return { scheme: 'plain', description, encode: (v) => v, decode: (v) => v };
}

const plainCodec = plainSecretCodec();
/** The scheme of secrets the Electron shell encrypts with the OS keychain (safeStorage). */
export const KEYCHAIN_SCHEME = 'electron-safe-storage';
/** Every scheme a version of this app writes. */
const KNOWN_SCHEMES = new Set([plainCodec.scheme, KEYCHAIN_SCHEME]);

export type SecretValues = Partial<Record<SecretName, string>>;

export interface SecretStore {
  readonly file: string;
  /** Where and how keys are kept, in plain words (with its code). */
  readonly description: Saying;
  /** Every stored secret. A corrupt file throws SettingsFileError. */
  load(): Promise<SecretValues>;
  /** Stores (or, with null, removes) one secret. */
  set(name: SecretName, value: string | null): Promise<void>;
}

interface SecretsFile {
  scheme: string;
  secrets: Record<string, string>;
}

/**
 * A secrets file others can read (copied in by hand, restored from a backup, unpacked from an archive) is made
 * readable by its owner only again before its keys are used. Windows has no such mode bits.
 */
async function keepPrivate(file: string): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await stat(file);
  if ((mode & 0o077) === 0) return;
  try {
    await chmod(file, 0o600);
  } catch (error) {
    throw new SettingsFileError(
      `${file} can be read by other users and its permissions cannot be changed (${(error as Error).message}); run \`chmod 600 ${file}\``,
    );
  }
}

export function createSecretStore(folder: string, codec: SecretCodec = plainCodec): SecretStore {
  const file = path.join(folder, SECRETS_FILE);
  const queue = serialize();

  async function readStored(): Promise<SecretsFile> {
    const json = (await readJson(file)) as SecretsFile | undefined;
    if (json === undefined) return { scheme: codec.scheme, secrets: {} };
    await keepPrivate(file);
    if (typeof json !== 'object' || json === null || typeof json.secrets !== 'object' || json.secrets === null) {
      throw new SettingsFileError(`${file} is not a secrets file; fix or delete it — it was not changed`);
    }
    if (json.scheme !== codec.scheme) {
      // The scheme is named only when it is one this app writes: a hand-edited value could be anything, even a key.
      const written = KNOWN_SCHEMES.has(json.scheme) ? `"${json.scheme}" storage` : 'an unknown storage scheme';
      throw new SettingsFileError(
        `${file} was written with ${written} but this process uses "${codec.scheme}"; enter the keys again after deleting it`,
      );
    }
    return json;
  }

  return {
    file,
    description: codec.description,
    async load() {
      const stored = await readStored();
      const values: SecretValues = {};
      for (const name of SECRET_NAMES) {
        const raw = stored.secrets[name];
        if (typeof raw !== 'string') continue;
        try {
          values[name] = codec.decode(raw);
        } catch {
          throw new SettingsFileError(`${name} in ${file} cannot be decoded; set it again`);
        }
      }
      return values;
    },
    set: (name, value) =>
      queue(async () => {
        const stored = await readStored();
        const secrets = { ...stored.secrets };
        if (value === null) delete secrets[name];
        else secrets[name] = codec.encode(value);
        await writeFileAtomic(file, `${JSON.stringify({ scheme: codec.scheme, secrets }, null, 2)}\n`, 0o600);
      }),
  };
}
