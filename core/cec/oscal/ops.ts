import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { restrictedPath } from '../bundle-path.ts';
import { getEntry } from '../registry.ts';
import { withDownloadedBundle } from '../remote-bundle.ts';
import { s3Url } from '../storage/s3-config.ts';
import { exportOscal } from './export.ts';

/** Runs `use` on a registered bundle's ZIP: the local file, or a private temp copy of the object in the bucket. */
const withRegisteredZip = async <T>(app: App, bundleId: string, use: (zipPath: string) => Promise<T>): Promise<T> => {
  const entry = await getEntry(app, bundleId);
  if (entry === null) throw new AppError('NOT_FOUND', 'Bundle not found');
  if (entry.object !== null) return withDownloadedBundle(app, s3Url(entry.object), use);
  if (!existsSync(entry.zip_path)) throw new AppError('NOT_FOUND', 'Bundle ZIP is no longer on disk');
  return use(entry.zip_path);
};

/** The OSCAL export of a bundle, by registered bundle id (REST and the Bundles screen) or by path. */
export const oscalOps = {
  'cec.oscalExport': defineOp({
    summary: "A bundle's clause map and evidence summary as OSCAL 1.1.3 Assessment Results (GET /v1/risk/cec/{bundle_id}/oscal)",
    input: z
      .object({
        bundle_id: z.string().min(1).max(100).optional(),
        zip_path: z.string().min(1).max(4096).optional(),
        key: z.string().min(1).max(1024).optional(),
        public_key: z.string().min(1).max(20_000).optional(),
      })
      .refine((input) => (input.bundle_id === undefined) !== (input.zip_path === undefined), {
        message: 'give exactly one of bundle_id and zip_path',
      }),
    access: 'read',
    tier: 'api',
    http: { method: 'GET', path: '/v1/risk/cec/:bundle_id/oscal', errorField: 'detail', validationStatus: 422 },
    handler: async (input, ctx) => {
      const exportFrom = async (zipPath: string) =>
        (
          await exportOscal(ctx.app, zipPath, {
            ...(input.key === undefined ? {} : { key: input.key }),
            ...(input.public_key === undefined ? {} : { publicKeys: [input.public_key] }),
          })
        ).document;
      if (input.zip_path === undefined) return withRegisteredZip(ctx.app, input.bundle_id ?? '', exportFrom);
      // The desktop user may export any file; remote callers stay inside the bundle directory.
      return exportFrom(ctx.actor.kind === 'local' ? input.zip_path : restrictedPath(ctx.app, input.zip_path));
    },
  }),
} as const;
