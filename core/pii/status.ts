import { type App, service } from '../app.ts';
import { piiCatalog } from './default-engine.ts';
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

/** Prepared once per app: scans write this row on every commit. */
const stateStatements = (app: App) =>
  service(app, 'pii.stateStatements', () => ({
    upsert: app.db.prepare('INSERT INTO pii_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
    read: app.db.prepare('SELECT value FROM pii_state WHERE key = ?'),
  }));

/** Stores the time of the latest scan; call inside the transaction that records the scan's evidence. */
export const recordScanTime = (app: App, at: string): void => {
  stateStatements(app).upsert.run('last_scan_at', at);
};

/** ISO 8601 UTC time of the latest scan, or null when nothing was ever scanned with this data dir. */
export const lastScanAt = (app: App): string | null => {
  const row = stateStatements(app).read.get('last_scan_at') as { value: string } | undefined;
  return row?.value ?? null;
};

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
  const builtIn = piiCatalog(app).entityTypes();
  if (url === '') {
    return { status: 'ok', presidio_available: false, entity_types_loaded: builtIn, last_scan_at: lastScanAt(app) };
  }
  const available = await presidioHealthy(url);
  markPresidio(app, available);
  const remote = available ? await presidioSupportedEntities(url, 'en') : [];
  return {
    status: available ? 'ok' : 'degraded',
    presidio_available: available,
    entity_types_loaded: [...new Set([...builtIn, ...remote])].sort(),
    last_scan_at: lastScanAt(app),
  };
};
