import { createReadStream, existsSync } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../errors.ts';
import type { ProtocolRoutes } from '../http/protocol-routes.ts';
import { maxUploadBytes, saveCapped, withTempBundleFile } from './capped-file.ts';
import { SFCECClient } from './client.ts';
import { getEntry } from './registry.ts';
import { withDownloadUrl } from './storage/stored-bundles.ts';

/** Both routes need the api tier, like the bundle ops; the HTTP pipeline checks it before the body is read. */
const config = { svc: { access: { tier: 'api' }, errors: { body: 'detail' } } } as const;

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
    return withTempBundleFile(async (file) => {
      await saveCapped(body, file, maxUploadBytes(app.env));
      const key = request.headers['x-svc-signing-key'];
      const publicKey = request.headers['x-svc-public-key'];
      const result = await new SFCECClient({ app }).verifyBundle(file, {
        ...(typeof key === 'string' && key !== '' ? { key } : {}),
        ...(typeof publicKey === 'string' && publicKey !== '' ? { publicKeys: [Buffer.from(publicKey, 'base64').toString('utf8')] } : {}),
      });
      return reply.code(200).send(result);
    });
  });

  fastify.get<{ Params: { bundle_id: string } }>('/v1/risk/cec/:bundle_id/download', { config }, async (request, reply) => {
    const entry = await getEntry(app, request.params.bundle_id.slice(0, 100));
    if (entry === null) throw new AppError('NOT_FOUND', 'Bundle not found');
    if (Date.parse(entry.expires_at) <= app.now().getTime()) {
      throw new AppError('NOT_FOUND', 'Download link expired; reissue it', { status: 410 });
    }
    // A bundle in the bucket: the browser goes to its presigned URL (same expiry), the bytes never pass here.
    if (entry.object !== null) return reply.redirect((await withDownloadUrl(app, entry)).download_url, 302);
    if (!existsSync(entry.zip_path)) throw new AppError('NOT_FOUND', 'Bundle file is gone from disk', { status: 410 });
    return reply
      .code(200)
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', `attachment; filename="${basename(entry.zip_path)}"`)
      .send(createReadStream(entry.zip_path));
  });
};
