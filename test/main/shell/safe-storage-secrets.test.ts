import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSafeStorageCodec, SAFE_STORAGE_SCHEME, type SafeStorageLike } from '../../../src/main/shell/safe-storage-secrets';
import { secretStorageChoice } from '../../../src/main/shell/shell-policy';
import { createSecretStore } from '../../../src/core/storage/settings-store';

/** Stands in for the OS keychain outside Electron: real AES-GCM with a key held in memory. */
function keychain(available = true): SafeStorageLike {
  const key = randomBytes(32);
  return {
    isEncryptionAvailable: () => available,
    encryptString(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(data) {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

let folder: string;
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('safeStorage secrets', () => {
  it('Scenario: In Electron, keys are encrypted at rest with safeStorage', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'amc-secrets-'));
    const codec = createSafeStorageCodec(keychain(), secretStorageChoice({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'gnome_libsecret' }));
    expect(codec.scheme).toBe(SAFE_STORAGE_SCHEME);
    expect(codec.description.text).toBe('API keys are encrypted with the OS keychain (gnome_libsecret) and kept in the 0600 secrets file.');
    const store = createSecretStore(folder, codec);
    await store.set('ANTHROPIC_API_KEY', 'sk-ant-plain-text-never-on-disk');
    const file = path.join(folder, 'secrets.json');
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('sk-ant-plain-text-never-on-disk');
    expect(JSON.parse(text).scheme).toBe(SAFE_STORAGE_SCHEME);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await store.load()).toEqual({ ANTHROPIC_API_KEY: 'sk-ant-plain-text-never-on-disk' });
  });

  it('Scenario: On Linux basic_text, keys stay in the user-only file and Settings says so', async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'amc-secrets-'));
    // basic_text "encrypts" with a key built into Chromium: the codec must not claim keychain protection.
    const choice = secretStorageChoice({ platform: 'linux', encryptionAvailable: true, linuxBackend: 'basic_text' });
    const codec = createSafeStorageCodec(keychain(), choice);
    expect(codec.scheme).toBe('plain');
    expect(codec.description.text).toBe('API keys are kept in secrets.json, readable only by you; no OS keychain protects them on this system, so they are not encrypted.');
    const store = createSecretStore(folder, codec);
    await store.set('OPENAI_API_KEY', 'sk-basic');
    expect((await stat(path.join(folder, 'secrets.json'))).mode & 0o777).toBe(0o600);
    expect(store.description).toBe(codec.description);
  });

  it('falls back to the user-only file when the OS offers no encryption', () => {
    const choice = secretStorageChoice({ platform: 'darwin', encryptionAvailable: false, linuxBackend: null });
    expect(createSafeStorageCodec(keychain(false), choice).scheme).toBe('plain');
  });
});
