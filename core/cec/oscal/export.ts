import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { readTrustedPublicKey } from '../ed25519.ts';
import { type AssessmentResults, toAssessmentResults } from './assessment-results.ts';
import { readVerifiedBundle } from './read-bundle.ts';

/** Keys an auditor may bring, as `svc verify` takes them (the configured signing key otherwise). */
export type ExportKeys = { readonly key?: string; readonly publicKey?: string };

const trustedKey = (text: string) => {
  try {
    return readTrustedPublicKey(text);
  } catch (error) {
    throw new AppError('VALIDATION', `Trusted public key is not an Ed25519 key: ${(error as Error).message}`);
  }
};

/**
 * Verifies a bundle ZIP, reads its clause map and returns the OSCAL Assessment Results document with the
 * verification verdict (a bundle that fails verification still exports; the document states it).
 */
export const exportOscal = async (
  app: App,
  zipPath: string,
  keys: ExportKeys = {},
): Promise<{ document: AssessmentResults; overall_valid: boolean }> => {
  const contents = await readVerifiedBundle(app, zipPath, {
    ...(keys.key === undefined ? {} : { hmacKey: keys.key }),
    ...(keys.publicKey === undefined ? {} : { trustedPublicKey: trustedKey(keys.publicKey) }),
  });
  return { document: toAssessmentResults(contents), overall_valid: contents.verification.overall_valid };
};
