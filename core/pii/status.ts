import { z } from 'zod';
import { type App, service } from '../app.ts';
import { defaultPiiEngine } from './default-engine.ts';
import { presidioHealthy, presidioSupportedEntities } from './presidio/client.ts';

/** What the app last learnt about the Presidio service (from a scan or a health probe). */
export type PresidioState = { available: boolean | null; checkedAt: string | null };

export const presidioState = (app: App): PresidioState =>
  service(app, 'pii.presidioState', (): PresidioState => ({ available: null, checkedAt: null }));

export const markPresidio = (app: App, available: boolean): void => {
  const state = presidioState(app);
  state.available = available;
  state.checkedAt = app.now().toISOString();
};

const valueRow = z.object({ value: z.string() });

/**
 * Stores the time of the latest scan, after the scan's evidence committed. Only ever moves forward: instances
 * on one database, and batches that commit out of order, cannot set it back (ISO 8601 UTC compares as text).
 */
export const recordScanTime = async (app: App, at: string): Promise<void> => {
  await app.database.run(
    'INSERT INTO pii_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE excluded.value > pii_state.value',
    ['last_scan_at', at],
  );
};

/** ISO 8601 UTC time of the latest scan, or null when nothing was ever scanned with this database. */
export const lastScanAt = async (app: App): Promise<string | null> =>
  (await app.database.one(valueRow, 'SELECT value FROM pii_state WHERE key = ?', ['last_scan_at']))?.value ?? null;

export type PiiStatus = {
  readonly status: 'ok' | 'degraded';
  readonly presidio_available: boolean;
  readonly entity_types_loaded: string[];
  readonly last_scan_at: string | null;
};

/**
 * The `sf_pii` block of `GET /v1/svc/status` (spec 2.3), told truthfully: with a Presidio URL configured it
 * probes `/health` now; `degraded` means Presidio is configured but down, so scans use the built-in engine.
 * `entity_types_loaded` lists every type the built-in engine can scan (all languages), plus Presidio's own when
 * it is up.
 */
export const piiStatus = async (app: App): Promise<PiiStatus> => {
  const url = app.settings.get().presidioUrl;
  const builtIn = defaultPiiEngine(app).entityTypes();
  if (url === '') {
    return { status: 'ok', presidio_available: false, entity_types_loaded: builtIn, last_scan_at: await lastScanAt(app) };
  }
  const available = await presidioHealthy(url);
  markPresidio(app, available);
  const remote = available ? await presidioSupportedEntities(url, 'en') : [];
  return {
    status: available ? 'ok' : 'degraded',
    presidio_available: available,
    entity_types_loaded: [...new Set([...builtIn, ...remote])].sort(),
    last_scan_at: await lastScanAt(app),
  };
};
