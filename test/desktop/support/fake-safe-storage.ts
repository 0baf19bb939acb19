// A stand-in for Electron's safeStorage: a real (if toy) cipher, so tests can check that no
// secret reaches the disk in plain text and that a blob from "another keychain" is refused.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../../desktop/main/credential-store.ts';

export interface FakeSafeStorage extends SafeStorageLike {
  available: boolean;
  backend: string;
}

export function fakeSafeStorage(
  options: { available?: boolean; backend?: string; key?: Buffer } = {},
): FakeSafeStorage {
  const key = options.key ?? randomBytes(32);
  return {
    available: options.available ?? true,
    backend: options.backend ?? 'gnome_libsecret',
    isEncryptionAvailable() {
      return this.available;
    },
    getSelectedStorageBackend() {
      return this.backend;
    },
    encryptString(plain) {
      if (!this.available) throw new Error('Encryption is not available.');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(blob) {
      const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
      decipher.setAuthTag(blob.subarray(12, 28));
      return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
