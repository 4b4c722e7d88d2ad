import { mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { DateRange } from './types.ts';

/** A project id made safe for a file name: only `[A-Za-z0-9._-]`, no leading dots, at most 64 characters. */
export const safeProjectId = (projectId: string): string => {
  const cleaned = projectId
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '')
    .slice(0, 64);
  return cleaned === '' ? 'project' : cleaned;
};

/** Spec 2.4 file name `svc_cec_{project_id}_{from}_{to}.zip`. */
export const bundleFileName = (projectId: string, [from, to]: DateRange): string => `svc_cec_${safeProjectId(projectId)}_${from}_${to}.zip`;

/** The configured bundle directory: setting/SVC_BUNDLE_OUTPUT_DIR, else `<dataDir>/bundles`, else a temp dir. */
export const defaultBundleDir = (app: App): string => {
  const configured = app.settings.get().bundleOutputDir;
  if (configured !== '') return resolve(configured);
  return app.dataDir === null ? join(tmpdir(), 'svc-bundles') : join(app.dataDir, 'bundles');
};

/** Joins a file name to a directory and proves the result stays inside it (no separators, no `..`). */
export const pathInside = (dir: string, fileName: string): string => {
  const full = resolve(dir, fileName);
  if (dirname(full) !== resolve(dir)) throw new AppError('VALIDATION', 'bundle file name escapes output_dir');
  return full;
};

const isWithin = (root: string, candidate: string): boolean => {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** A file a remote caller names (e.g. a bundle to verify) must lie inside the bundle directory too. */
export const restrictedPath = (app: App, requested: string): string => {
  const root = realpathSync(restrictedOutputDir(app, undefined));
  const wanted = resolve(root, requested);
  let real = wanted;
  try {
    real = realpathSync(wanted);
  } catch {
    // A missing file is reported by the verifier (SFCECVerifyError); only its location matters here.
  }
  if (!isWithin(root, wanted) || !isWithin(root, real)) {
    throw new AppError('FORBIDDEN', 'zip_path must be inside the configured bundle directory');
  }
  return real;
};

/**
 * Where a remote (REST) caller may write: only inside the configured bundle directory. A relative `output_dir`
 * is taken relative to it; symlinks are resolved before the check so a link cannot lead outside.
 */
export const restrictedOutputDir = (app: App, requested: string | undefined): string => {
  const root = defaultBundleDir(app);
  mkdirSync(root, { recursive: true });
  const realRoot = realpathSync(root);
  if (requested === undefined || requested === '') return realRoot;
  const wanted = resolve(realRoot, requested);
  if (!isWithin(realRoot, wanted)) {
    throw new AppError('VALIDATION', 'output_dir must be inside the configured bundle directory', { status: 422 });
  }
  mkdirSync(wanted, { recursive: true });
  if (!isWithin(realRoot, realpathSync(wanted))) {
    throw new AppError('VALIDATION', 'output_dir must be inside the configured bundle directory', { status: 422 });
  }
  return realpathSync(wanted);
};
