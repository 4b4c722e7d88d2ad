import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { envSetting } from '../config/env-settings.ts';
import { AppError } from '../errors.ts';

/** Largest bundle accepted by the verify upload or downloaded from a URL (SVC_CEC_MAX_UPLOAD_BYTES; default 2 GiB). */
export const maxUploadBytes = (env: NodeJS.ProcessEnv): number => envSetting(env, 'cecMaxUploadBytes');

/** Copies a stream to a private file, refusing it once it passes `limit` bytes (counted, not trusted). */
export const saveCapped = async (body: AsyncIterable<Uint8Array>, file: string, limit: number): Promise<void> => {
  let size = 0;
  await pipeline(
    body,
    async function* (source: AsyncIterable<Uint8Array>) {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', `Bundle larger than ${limit} bytes`);
        yield chunk;
      }
    },
    createWriteStream(file, { mode: 0o600 }),
  );
};

/** Runs `use` with a path in a fresh private temp folder, and removes the folder afterwards whatever happens. */
export const withTempBundleFile = async <T>(use: (file: string) => Promise<T>): Promise<T> => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-verify-'));
  try {
    return await use(join(dir, 'bundle.zip'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
