import type { SafeStorage } from 'electron';
import { KEYCHAIN_SCHEME, plainSecretCodec, type SecretCodec } from '../../core/storage/settings-store';
import type { SecretStorageChoice } from './shell-policy';
import { say } from '../../shared/said';

/** The part of Electron's safeStorage the codec uses (the shell passes the real one). */
export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;

export const SAFE_STORAGE_SCHEME = KEYCHAIN_SCHEME;

/**
 * Secrets encrypted with the OS keychain through Electron's safeStorage (Keychain on macOS, DPAPI on
 * Windows, the Secret Service / KWallet on Linux), stored as base64 in the 0600 secrets file. When no real
 * keychain backs safeStorage (none at all, or Linux's `basic_text` built-in key), the secrets file alone
 * (readable only by the user) is used, as in the browser UI, and Settings says so.
 */
export function createSafeStorageCodec(safeStorage: SafeStorageLike, choice: SecretStorageChoice): SecretCodec {
  if (!choice.useKeychain || !safeStorage.isEncryptionAvailable()) {
    return plainSecretCodec(true);
  }
  return {
    scheme: SAFE_STORAGE_SCHEME,
    description: choice.keychainName ? say('keyStorage.keychain', { keychain: choice.keychainName }) : say('keyStorage.osKeychain'),
    encode: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
}
