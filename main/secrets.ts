import type { SafeStorage } from 'electron';
import { fileSecretStore, type SecretStore } from '../core/config/secret-store.ts';

/**
 * Secrets at rest in the desktop app: each value encrypted with the OS keychain through safeStorage, in the
 * same 0600 file `svc serve` uses. Where the OS offers no encryption (a bare Linux session without a keyring)
 * we refuse plain text silently: the file permissions still apply and the user is told in the log.
 */
export const desktopSecretStore = (dataDir: string, safeStorage: SafeStorage): SecretStore => {
  if (!safeStorage.isEncryptionAvailable()) return fileSecretStore(dataDir);
  return fileSecretStore(dataDir, {
    encrypt: (plain) => `enc:${safeStorage.encryptString(plain).toString('base64')}`,
    decrypt: (stored) => (stored.startsWith('enc:') ? safeStorage.decryptString(Buffer.from(stored.slice(4), 'base64')) : stored),
  });
};
