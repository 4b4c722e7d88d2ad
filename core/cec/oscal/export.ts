import type { App } from '../../app.ts';
import type { VerifyBundleOptions } from '../client.ts';
import { type AssessmentResults, toAssessmentResults } from './assessment-results.ts';
import { readVerifiedBundle } from './read-bundle.ts';

/**
 * Verifies a bundle ZIP, reads its clause map and returns the OSCAL Assessment Results document with the
 * verification verdict (a bundle that fails verification still exports; the document states it).
 */
export const exportOscal = async (
  app: App,
  zipPath: string,
  trust: VerifyBundleOptions = {},
): Promise<{ document: AssessmentResults; overall_valid: boolean }> => {
  const contents = await readVerifiedBundle(app, zipPath, trust);
  return { document: toAssessmentResults(contents), overall_valid: contents.verification.overall_valid };
};
