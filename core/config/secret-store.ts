import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { SecretName } from './settings-schema.ts';

/**
 * Where secrets rest. The desktop app supplies one backed by Electron's safeStorage (OS keychain); `svc serve`
 * uses a user-only (0600) file in the data dir; tests use memory.
 */
export type SecretStore = {
  get(name: SecretName): string | undefined;
  set(name: SecretName, value: string): void;
  delete(name: SecretName): void;
};

export const memorySecretStore = (): SecretStore => {
  const values = new Map<SecretName, string>();
  return {
    get: (name) => values.get(name),
    set: (name, value) => void values.set(name, value),
    delete: (name) => void values.delete(name),
  };
};

const fileSchema = z.record(z.string(), z.string());

/**
 * Secrets in `<dataDir>/secrets.json`, mode 0600, written atomically (temp file + rename). An optional codec
 * (Electron safeStorage) encrypts each value; without one, file permissions are the protection.
 */
export const fileSecretStore = (
  dataDir: string,
  codec: { encrypt(plain: string): string; decrypt(stored: string): string } = {
    encrypt: (plain) => plain,
    decrypt: (stored) => stored,
  },
): SecretStore => {
  const file = join(dataDir, 'secrets.json');
  const read = (): Record<string, string> => (existsSync(file) ? fileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))) : {});
  const write = (values: Record<string, string>): void => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(values), { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  };
  return {
    get: (name) => {
      const stored = read()[name];
      return stored === undefined ? undefined : codec.decrypt(stored);
    },
    set: (name, value) => write({ ...read(), [name]: codec.encrypt(value) }),
    delete: (name) => {
      const { [name]: _removed, ...rest } = read();
      write(rest);
    },
  };
};
