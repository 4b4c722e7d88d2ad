import { readFileSync } from 'node:fs';
import type { App } from '../app.ts';
import { settingsEnv, settingsSchema } from '../config/settings-schema.ts';
import { AppError } from '../errors.ts';
import { appTrustList, toTrustedKey } from './trusted-keys.ts';
import type { HeldAnchors } from './held-anchors.ts';
import type { BundleVerificationResult } from './types.ts';
import { verifyBundleFile } from './verify.ts';

/**
 * Trust inputs of verifyBundle. `key`: the HMAC key. `publicKeys`: trusted Ed25519 keys (SPKI PEM or JWK JSON;
 * several for rotation); without them the app's trust list (own key + imported keys) applies. `tsaCaPem`: TSA
 * roots; default the file named by the `tsaCaFile` setting (SVC_TSA_CA_FILE).
 */
export type VerifyBundleOptions = {
  readonly key?: string;
  readonly publicKeys?: readonly string[];
  readonly tsaCaPem?: readonly string[];
  /** Anchors the auditor kept from an earlier `svc anchors export`, checked against the bundle's chain too. */
  readonly heldAnchors?: HeldAnchors;
};

/** The TSA roots in `file` (the `tsaCaFile` setting, SVC_TSA_CA_FILE), none when it is empty. */
const tsaRootsFrom = (file: string): string[] => {
  if (file === '') return [];
  try {
    return [readFileSync(file, 'utf8')];
  } catch (error) {
    throw new AppError('VALIDATION', `SVC_TSA_CA_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
};

/**
 * Verifies a bundle ZIP with the caller's trust inputs, defaulting each from the app (its signing secret, its
 * trust list, SVC_TSA_CA_FILE). Kept apart from the CEC client so `svc verify` loads the verifier only.
 * @throws SFCECVerifyError if the file is missing or unreadable.
 */
export const verifyBundleWithTrust = async (
  app: App,
  zipPath: string,
  options: VerifyBundleOptions = {},
  configuredKey?: string,
): Promise<BundleVerificationResult> => {
  const explicitKeys = options.publicKeys !== undefined && options.publicKeys.length > 0;
  // With trusted public keys given, an unrelated HMAC key from the environment must not fail a genuine bundle.
  const hmacKey = options.key ?? configuredKey ?? (explicitKeys ? undefined : app.settings.secret('signingKey'));
  const trustedKeys = explicitKeys ? await Promise.all((options.publicKeys ?? []).map(toTrustedKey)) : await appTrustList(app);
  return verifyBundleFile(app, zipPath, {
    ...(hmacKey === undefined ? {} : { hmacKey }),
    trustedKeys,
    tsaTrustAnchorsPem: options.tsaCaPem ?? tsaRootsFrom(app.settings.get().tsaCaFile),
    ...(options.heldAnchors === undefined ? {} : { heldAnchors: options.heldAnchors }),
  });
};

/** The `tsaCaFile` setting as the environment alone gives it (SVC_TSA_CA_FILE), checked as the app checks it. */
const tsaCaFileFromEnv = (env: NodeJS.ProcessEnv): string => {
  const name = settingsEnv.tsaCaFile;
  const raw = name === undefined ? undefined : env[name];
  if (raw === undefined || raw === '') return '';
  const parsed = settingsSchema.shape.tsaCaFile.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION', `SVC_TSA_CA_FILE: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  return parsed.data;
};

/**
 * Verifies a bundle ZIP against the caller's trust inputs only (an auditor's `svc verify --key/--public-key`): no
 * app, no data dir, no database; the HMAC key and public keys are the given ones or none, the TSA roots the given
 * ones or those in the file SVC_TSA_CA_FILE names. Opening no storage keeps the auditor's machine untouched and
 * saves the command the start-up of the storage stack.
 */
export const verifyBundleWithGivenTrust = async (
  zipPath: string,
  options: VerifyBundleOptions,
  env: NodeJS.ProcessEnv,
): Promise<BundleVerificationResult> =>
  verifyBundleFile({ now: () => new Date() }, zipPath, {
    ...(options.key === undefined ? {} : { hmacKey: options.key }),
    trustedKeys: await Promise.all((options.publicKeys ?? []).map(toTrustedKey)),
    tsaTrustAnchorsPem: options.tsaCaPem ?? tsaRootsFrom(tsaCaFileFromEnv(env)),
    ...(options.heldAnchors === undefined ? {} : { heldAnchors: options.heldAnchors }),
  });
