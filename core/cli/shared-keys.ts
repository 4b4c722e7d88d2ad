import { isInsecureKey } from '../cec/signing-key.ts';
import { secretsEnv } from '../config/settings-schema.ts';
import { AppError } from '../errors.ts';

/** The keys every instance on one database must hold identically: sessions and bundle manifests are signed with them. */
const sharedKeys = [secretsEnv.sessionKey, secretsEnv.signingKey] as const;

/**
 * On PostgreSQL `svc serve` refuses to start unless SVC_SESSION_KEY and SVC_SIGNING_KEY come from the environment,
 * at least 16 characters and no well-known placeholder (docs/decisions.md, "Several svc serve instances"). A key
 * generated into one instance's data dir would sign sessions the other instances refuse and bundles they cannot
 * verify, and would be lost with that machine; a value in `secrets.json` is one instance's too, so it does not count.
 */
export const requireSharedKeys = (env: NodeJS.ProcessEnv): void => {
  const missing = sharedKeys.filter((name) => isInsecureKey(env[name] ?? ''));
  if (missing.length === 0) return;
  throw new AppError(
    'UNAVAILABLE',
    `${missing.join(' and ')}: required with SVC_DATABASE_URL, the same value on every instance (at least 16 random characters, e.g. \`openssl rand -base64 32\`), set in the environment`,
  );
};
