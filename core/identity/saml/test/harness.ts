import { type App, createApp } from '../../../app.ts';
import type { SignaturePolicy } from '../config.ts';
import { failedCheckOf } from '../errors.ts';
import { allowedAlgorithms } from '../signature.ts';
import { samlTracker } from '../store.ts';
import { type SamlValidatorConfig, type ValidatedSamlResponse, validateSamlResponse } from '../validator.ts';
import { SP, type TestIdp } from './idp.ts';

export const NOW = new Date('2026-03-01T12:00:00.000Z');

export type Overrides = Partial<Omit<SamlValidatorConfig, 'algorithms'>> & { allowSha1?: boolean; policy?: SignaturePolicy };

/**
 * Runs the real validator against a fresh in-memory app (SQLite replay cache and request store) per call, with
 * the test IdP's certificate trusted. `rejection` names the check that refused a message.
 */
export const validatorHarness = (trusted: () => TestIdp) => {
  let app: App | undefined;
  const configFor = (overrides: Overrides = {}): SamlValidatorConfig => ({
    trustedCerts: [trusted().cert],
    expectedIssuer: SP.issuer,
    audience: SP.entityId,
    acsUrl: SP.acsUrl,
    signaturePolicy: overrides.policy ?? 'assertion',
    algorithms: allowedAlgorithms(overrides.allowSha1 ?? false),
    clockSkewMs: 60_000,
    now: () => NOW,
    allowIdpInitiated: true,
    limits: { maxBytes: 262_144, maxDepth: 32 },
    decryptionKeyPem: undefined,
    ...overrides,
  });
  const freshApp = (): App => {
    app?.close();
    app = createApp({ dataDir: ':memory:', now: () => NOW });
    return app;
  };
  const validate = (encoded: string, overrides: Overrides = {}): Promise<ValidatedSamlResponse> => {
    app ??= createApp({ dataDir: ':memory:', now: () => NOW });
    return validateSamlResponse(encoded, configFor(overrides), samlTracker(app));
  };
  /** The check that rejected the message; fails the test when it was accepted or failed for another reason. */
  const rejection = async (encoded: string, overrides: Overrides = {}): Promise<{ check: string; message: string }> => {
    freshApp();
    try {
      await validate(encoded, overrides);
    } catch (error) {
      const check = failedCheckOf(error);
      if (check === undefined) throw error;
      return { check, message: (error as Error).message };
    }
    throw new Error('the response was accepted');
  };
  return {
    freshApp,
    validate,
    rejection,
    close: () => app?.close(),
    app: () => app ?? freshApp(),
  };
};
