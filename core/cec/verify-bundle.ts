import { readFileSync } from 'node:fs';
import type { App } from '../app.ts';
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

const configuredTsaRoots = (app: App): string[] => {
  const file = app.settings.get().tsaCaFile;
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
    tsaTrustAnchorsPem: options.tsaCaPem ?? configuredTsaRoots(app),
    ...(options.heldAnchors === undefined ? {} : { heldAnchors: options.heldAnchors }),
  });
};
