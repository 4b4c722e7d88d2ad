/**
 * How the app scans: in-process by default (the CLI, tests, SDK: a pool would only add start-up), or on the
 * worker pool once a serving composition root calls `startPiiWorkers` (`svc serve`, the desktop app), so that
 * every request-serving entry point (HTTP routes, IPC ops, the chat filter, block mode) scans off the event loop.
 */
import { availableParallelism } from 'node:os';
import { type App, service } from '../../app.ts';
import { chainTarget } from '../../audit/store.ts';
import { envSetting } from '../../config/env-settings.ts';
import { customRecognizersFileOf } from '../default-engine.ts';
import type { EngineScanOptions, PiiEngine, ScanResult } from '../types.ts';
import { createEvidenceWriter, type EvidenceWriter } from './evidence-writer.ts';
import { createScanPool, type ScanControl, type ScanPool, scanCancelled } from './pool.ts';
import type { EvidenceWriterConfig } from './protocol.ts';
import { spawnWorker } from '../../worker-thread.ts';
import { evidenceWriterUrl, scanWorkerUrl } from './spawn.ts';

export type Scanner = { scan(text: string, options: EngineScanOptions, control: ScanControl): Promise<ScanResult> };

const poolKey = 'pii.scanPool';
const writerKey = 'pii.evidenceWriter';

/** SVC_PII_WORKERS: `auto` is one worker per core the process may use. */
export const piiWorkerCount = (app: App): number => {
  const setting = envSetting(app.env, 'piiWorkers');
  return setting === 'auto' ? availableParallelism() : setting;
};

/**
 * Starts the app's scan workers (SVC_PII_WORKERS of them; none when it is 0) and routes its scans to them until
 * `app.close()`. `workerUrl` is for tests that need a worker which misbehaves on purpose.
 */
export const startPiiWorkers = (app: App, workerUrl: URL = scanWorkerUrl()): ScanPool | undefined => {
  const size = piiWorkerCount(app);
  if (size === 0) return undefined;
  startEvidenceWriter(app);
  const file = customRecognizersFileOf(app);
  const config = file === undefined ? {} : { customRecognizersFile: file };
  return service(app, poolKey, () =>
    createScanPool({
      size,
      timeoutMs: envSetting(app.env, 'piiScanTimeoutSeconds') * 1000,
      spawn: () => spawnWorker(workerUrl, { workerData: config }),
    }),
  );
};

/**
 * The scans' evidence writer thread (evidence-writer.ts), on an app whose storage is its own SQLite file; in
 * memory (one connection only) or on PostgreSQL (whose pool writes off the event loop already) the evidence
 * queue writes on the app's connection.
 */
export const startEvidenceWriter = (app: App): void => {
  const sqlite = chainTarget(app).sqlite;
  if (sqlite === null || sqlite.memory) return;
  // The SQLite build is the process's (the desktop app's Electron ABI), as the app's connection was opened.
  const config: EvidenceWriterConfig = { file: sqlite.name, nativeBinding: envSetting(process.env, 'sqliteNativeBinding') };
  service(app, writerKey, () => createEvidenceWriter(() => spawnWorker(evidenceWriterUrl(), { workerData: config })));
};

/** The app's evidence writer thread, when its scan workers started one. */
export const evidenceWriterOf = (app: App): EvidenceWriter | undefined => app.services.get(writerKey) as EvidenceWriter | undefined;

/** The engine on the calling thread: progress between recognizers; a cancel is seen before the scan starts. */
const inProcess = (engine: () => Promise<PiiEngine>): Scanner => ({
  scan: async (text, options, control) => {
    const loaded = await engine();
    if (control.signal?.aborted) throw scanCancelled();
    return loaded.scan(text, options, control.onProgress);
  },
});

/** The pool when the app started one, else the engine `engine` loads, in-process. */
export const scannerOf = (app: App, engine: () => Promise<PiiEngine>): Scanner =>
  (app.services.get(poolKey) as ScanPool | undefined) ?? inProcess(engine);
