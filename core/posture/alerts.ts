import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../app.ts';
import { frameworkDisplayName, frameworkIds } from '../cec/clauses/index.ts';
import type { ProjectClauseMap } from '../cec/clauses/clause-map.ts';
import { keyVerdicts } from '../cec/clauses/compute.ts';
import { schemaKeys } from '../audit/types.ts';
import { getSamlConfig } from '../identity/saml/config.ts';
import type { AnchoringLag } from '../audit/anchors/lag.ts';

export type Alert = {
  readonly severity: 'critical' | 'warning' | 'info';
  /** chain_broken is raised by the Overview screen after it re-verifies the chain; the rest by the server. */
  readonly kind:
    | 'chain_broken'
    | 'failing_outcome'
    | 'stale_evidence'
    | 'anchor_lag'
    | 'api_key_expiry'
    | 'saml_certificate_expiry'
    | 'tsa';
  readonly message: string;
  /** Where the user acts on it (a hash route of the renderer). */
  readonly link: string;
};

const dayMs = 86_400_000;
/** How far ahead an expiry is announced. */
const expiryNoticeDays = 30;

/** Failing outcomes and cadence misses of the project's evidence, once per key (per framework for cadence). */
export const evidenceAlerts = (map: ProjectClauseMap): Alert[] => {
  const alerts: Alert[] = [];
  for (const key of schemaKeys) {
    const summary = map.evidence_summary[key];
    if (summary.failing > 0) {
      alerts.push({
        severity: 'warning',
        kind: 'failing_outcome',
        message: `${key}: ${summary.failing} of ${summary.series} series fail on their latest record (e.g. ${summary.failing_records
          .slice(0, 3)
          .map((r) => r.record_id)
          .join(', ')})`,
        link: '#/frameworks',
      });
    }
  }
  for (const framework of frameworkIds) {
    const verdicts = keyVerdicts(map.evidence_summary, map.cadences[framework], map.window);
    const late = schemaKeys.flatMap((key) =>
      verdicts[key].findings.filter((item) => item.code === 'stale' || item.code === 'uncovered').map((item) => `${key} ${item.message}`),
    );
    if (late.length > 0) {
      alerts.push({
        severity: 'warning',
        kind: 'stale_evidence',
        message: `${frameworkDisplayName(framework)}: ${late.join('; ')}`,
        link: `#/frameworks?framework=${framework}`,
      });
    }
  }
  return alerts;
};

const expiry = (what: string, validTo: number, now: number): Pick<Alert, 'severity' | 'message'> | null => {
  if (validTo <= now) return { severity: 'critical', message: `${what} expired on ${new Date(validTo).toISOString().slice(0, 10)}` };
  const days = Math.floor((validTo - now) / dayMs);
  return days <= expiryNoticeDays ? { severity: 'warning', message: `${what} expires in ${days} day(s)` } : null;
};

const keyExpiryRow = z.object({ name: z.string(), expires_at: z.string() });

/** API keys and SAML certificates that expire within 30 days (or already have, for certificates in use). */
export const credentialAlerts = async (app: App): Promise<Alert[]> => {
  const now = app.now().getTime();
  const alerts: Alert[] = [];
  // api_keys belongs to the API key domain; the alert only reads names and expiry times.
  const keys = await app.database.all(
    keyExpiryRow,
    'SELECT name, expires_at FROM api_keys WHERE revoked_at IS NULL AND expires_at IS NOT NULL AND expires_at > ? AND expires_at <= ? ORDER BY expires_at',
    [new Date(now).toISOString(), new Date(now + expiryNoticeDays * dayMs).toISOString()],
  );
  for (const key of keys) {
    const found = expiry(`API key "${key.name}"`, Date.parse(key.expires_at), now);
    if (found !== null) alerts.push({ ...found, kind: 'api_key_expiry', link: '#/keys' });
  }
  const config = await getSamlConfig(app);
  const certs = [
    ...config.idpCertsPem.map((pem) => ['IdP signing certificate', pem] as const),
    ['SP signing certificate', config.spSigningCertPem] as const,
  ];
  for (const [what, pem] of certs) {
    if (pem === '') continue;
    let validTo: number;
    try {
      const cert = new X509Certificate(pem);
      validTo = Date.parse(cert.validTo);
    } catch {
      alerts.push({ severity: 'warning', kind: 'saml_certificate_expiry', message: `${what} cannot be read as PEM`, link: '#/identity' });
      continue;
    }
    const found = expiry(what, validTo, now);
    if (found !== null) alerts.push({ ...found, kind: 'saml_certificate_expiry', link: '#/identity' });
  }
  return alerts;
};

/**
 * Records that have waited for an anchor longer than two scheduler intervals (the TSA may be failing), or any
 * unanchored record while periodic anchoring is off: until anchored, a rewrite of them is not detectable.
 */
export const anchorLagAlert = (app: App, projectId: string, lag: AnchoringLag | null): Alert | null => {
  if (lag === null || lag.lag_records === 0) return null;
  const intervalMinutes = app.settings.get().anchorIntervalMinutes;
  const waited = `${lag.lag_records} record(s) of ${projectId} have no anchor after them`;
  if (intervalMinutes === 0) {
    return {
      severity: 'info',
      kind: 'anchor_lag',
      message: `${waited}: periodic anchoring is off (SVC_ANCHOR_INTERVAL_MINUTES=0)`,
      link: '#/evidence',
    };
  }
  if (lag.lag_seconds <= 2 * intervalMinutes * 60) return null;
  return {
    severity: 'warning',
    kind: 'anchor_lag',
    message: `${waited} for ${Math.round(lag.lag_seconds / 60)} min (interval ${intervalMinutes} min): anchor now, and check the TSA if it keeps failing`,
    link: '#/evidence',
  };
};

/** Whether the configured TSA answers at all (any HTTP status); none configured means stub timestamps. */
export const tsaAlert = async (app: App): Promise<Alert | null> => {
  const url = app.settings.get().tsaUrl;
  if (url === '') {
    return {
      severity: 'info',
      kind: 'tsa',
      message: 'No timestamp authority configured: bundle timestamps are stubs that attest no time',
      link: '#/settings',
    };
  }
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    return null;
  } catch (error) {
    return {
      severity: 'warning',
      kind: 'tsa',
      message: `Timestamp authority ${url} is unreachable (${(error as Error).message})`,
      link: '#/settings',
    };
  }
};
