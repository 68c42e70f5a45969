import type { SafeStorage } from 'electron';
import { KEYCHAIN_SCHEME, type SecretCodec } from '../storage/settings-store';

/** The part of Electron's safeStorage the codec uses (the shell passes the real one). */
export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'>;

export const SAFE_STORAGE_SCHEME = KEYCHAIN_SCHEME;

/**
 * Secrets encrypted with the OS keychain through Electron's safeStorage (Keychain on macOS, DPAPI on
 * Windows, the Secret Service / KWallet on Linux), stored as base64 in the 0600 secrets file. Undefined
 * when the OS offers no encryption: the secrets file alone (readable only by the user) is used then.
 */
export function createSafeStorageCodec(safeStorage: SafeStorageLike): SecretCodec | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  return {
    scheme: SAFE_STORAGE_SCHEME,
    encode: (plain) => safeStorage.encryptString(plain).toString('base64'),
    decode: (stored) => safeStorage.decryptString(Buffer.from(stored, 'base64')),
  };
}
