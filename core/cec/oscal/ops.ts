import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { restrictedPath } from '../bundle-path.ts';
import { getEntry } from '../registry.ts';
import { exportOscal } from './export.ts';

const registeredZip = (app: App, bundleId: string): string => {
  const entry = getEntry(app, bundleId);
  if (entry === null) throw new AppError('NOT_FOUND', 'Bundle not found');
  if (!existsSync(entry.zip_path)) throw new AppError('NOT_FOUND', 'Bundle ZIP is no longer on disk');
  return entry.zip_path;
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
      const zipPath =
        input.zip_path === undefined
          ? registeredZip(ctx.app, input.bundle_id ?? '')
          : // The desktop user may export any file; remote callers stay inside the bundle directory.
            ctx.actor.kind === 'local'
            ? input.zip_path
            : restrictedPath(ctx.app, input.zip_path);
      const { document } = await exportOscal(ctx.app, zipPath, {
        ...(input.key === undefined ? {} : { key: input.key }),
        ...(input.public_key === undefined ? {} : { publicKeys: [input.public_key] }),
      });
      return document;
    },
  }),
} as const;
