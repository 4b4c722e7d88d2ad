import { z } from 'zod';
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

const valueRow = z.object({ value: z.string() });

/** How often at most this instance writes last_scan_at: one extra commit per scan would cost SQLite a second fsync. */
const persistEveryMs = 1_000;

type ScanTime = { latest: string | null; written: string | null; writtenAt: number; timer: NodeJS.Timeout | null; close(): Promise<void> };

/**
 * Writes this instance's latest scan time. Only ever moves forward: instances on one database, and writes that
 * land out of order, cannot set it back (ISO 8601 UTC compares as text).
 */
const persist = async (app: App, state: ScanTime): Promise<void> => {
  state.timer = null;
  const value = state.latest;
  if (value === null || value === state.written) return;
  state.written = value;
  state.writtenAt = Date.now();
  try {
    await app.database.run(
      'INSERT INTO pii_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE excluded.value > pii_state.value',
      ['last_scan_at', value],
    );
  } catch (error) {
    app.log.warn({ reason: (error as Error).message }, 'storing the last PII scan time failed');
  }
};

const scanTime = (app: App): ScanTime =>
  service(app, 'pii.scanTime', () => {
    const state: ScanTime = {
      latest: null,
      written: null,
      writtenAt: Number.NEGATIVE_INFINITY,
      timer: null,
      // On close, the pending time is written (app.close() awaits it before the storage closes).
      close: () => {
        if (state.timer !== null) clearTimeout(state.timer);
        return persist(app, state);
      },
    };
    return state;
  });

/**
 * Notes the time of a scan whose evidence has committed. Stored at once when this instance wrote none in the
 * last second, else once that second is over: other instances see it at most a second late; this one at once.
 * Resolves when an immediate write is done (scans do not wait for it).
 */
export const recordScanTime = async (app: App, at: string): Promise<void> => {
  const state = scanTime(app);
  if (state.latest !== null && state.latest >= at) return;
  state.latest = at;
  if (state.timer !== null) return;
  const wait = state.writtenAt + persistEveryMs - Date.now();
  if (wait <= 0) await persist(app, state);
  else state.timer = setTimeout(() => void persist(app, state), wait).unref();
};

/** ISO 8601 UTC time of the latest scan, or null when nothing was ever scanned with this database. */
export const lastScanAt = async (app: App): Promise<string | null> => {
  const stored = (await app.database.one(valueRow, 'SELECT value FROM pii_state WHERE key = ?', ['last_scan_at']))?.value ?? null;
  const mine = scanTime(app).latest;
  return mine !== null && (stored === null || mine > stored) ? mine : stored;
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
