import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { envSetting } from '../config/env-settings.ts';
import { AppError } from '../errors.ts';
import type { ProtocolRoutes } from '../http/protocol-routes.ts';
import { SFCECClient } from './client.ts';
import { getEntry } from './registry.ts';

/** Largest bundle accepted by the verify upload (SVC_CEC_MAX_UPLOAD_BYTES overrides; default 2 GiB). */
export const maxUploadBytes = (env: NodeJS.ProcessEnv): number => envSetting(env, 'cecMaxUploadBytes');

/** Both routes need the api tier, like the bundle ops; the HTTP pipeline checks it before the body is read. */
const config = { svc: { access: { tier: 'api' }, errors: { body: 'detail' } } } as const;

/** Copies the request body to a file, refusing it once it passes `limit` bytes (counted, not trusted). */
const saveCapped = async (body: Readable, file: string, limit: number): Promise<void> => {
  let size = 0;
  await pipeline(
    body,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        size += chunk.length;
        if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', `Bundle larger than ${limit} bytes`);
        yield chunk;
      }
    },
    createWriteStream(file, { mode: 0o600 }),
  );
};

/**
 * Bundle routes whose body is a file, not JSON: the verify upload (raw `application/zip`, streamed to a temp
 * file and size-capped) and the ZIP download. Both need the api tier, like the bundle ops.
 */
export const cecRoutes: ProtocolRoutes = async (fastify, { app }) => {
  fastify.addContentTypeParser(['application/zip', 'application/octet-stream'], (_request, payload, done) => done(null, payload));

  fastify.post('/v1/risk/cec/verify', { bodyLimit: Number.MAX_SAFE_INTEGER, config }, async (request, reply) => {
    const body = request.body as Readable | undefined;
    if (body === undefined || typeof (body as { pipe?: unknown }).pipe !== 'function') {
      throw new AppError('VALIDATION', 'Send the bundle as the raw body with Content-Type: application/zip', { status: 415 });
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-verify-'));
    try {
      const file = join(dir, 'upload.zip');
      await saveCapped(body, file, maxUploadBytes(app.env));
      const key = request.headers['x-svc-signing-key'];
      const publicKey = request.headers['x-svc-public-key'];
      const result = await new SFCECClient({ app }).verifyBundle(file, {
        ...(typeof key === 'string' && key !== '' ? { key } : {}),
        ...(typeof publicKey === 'string' && publicKey !== '' ? { publicKeys: [Buffer.from(publicKey, 'base64').toString('utf8')] } : {}),
      });
      return reply.code(200).send(result);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  fastify.get<{ Params: { bundle_id: string } }>('/v1/risk/cec/:bundle_id/download', { config }, async (request, reply) => {
    const entry = getEntry(app, request.params.bundle_id.slice(0, 100));
    if (entry === null) throw new AppError('NOT_FOUND', 'Bundle not found');
    if (Date.parse(entry.expires_at) <= app.now().getTime()) {
      throw new AppError('NOT_FOUND', 'Download link expired; reissue it', { status: 410 });
    }
    if (!existsSync(entry.zip_path)) throw new AppError('NOT_FOUND', 'Bundle file is gone from disk', { status: 410 });
    return reply
      .code(200)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${basename(entry.zip_path)}"`)
      .send(createReadStream(entry.zip_path));
  });
};
