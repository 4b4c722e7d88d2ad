import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type App, createApp, openDatabaseApp } from '../app.ts';
import { exampleEvidence } from '../audit/examples.ts';
import { appendEvidence } from '../audit/store.ts';
import type { EvidenceInput, SchemaKey } from '../audit/types.ts';
import { postgresMigrations } from '../migrations.ts';
import type { Database } from '../store/database.ts';
import { migratePostgres } from '../store/postgres-migrate.ts';
import { connectPostgres, postgresDatabase } from '../store/postgres-database.ts';
import type { TestBackend, TestApp } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';

/** A realistic minimal payload per schema key (valid against the store's schemas). */
export const samplePayloads: Record<SchemaKey, Record<string, unknown>> = {
  score_records: { model_id: 'credit', model_version: '1.2', metric: 'accuracy', value: 0.91, dataset: 'holdout-2026' },
  bias_reports: {
    model_id: 'credit',
    model_version: '1.2',
    protected_attribute: 'sex',
    metric: 'demographic_parity_difference',
    groups: [
      { group: 'f', value: 0.41 },
      { group: 'm', value: 0.44 },
    ],
    disparity: 0.03,
    threshold: 0.1,
    passed: true,
  },
  prri_records: { model_id: 'credit', score: 42, level: 'medium', factors: [{ name: 'autonomy', weight: 0.5, value: 3 }] },
  drift_events: { model_id: 'credit', feature: 'income', statistic: 'psi', value: 0.05, threshold: 0.2, detected: false },
  pii_detections: { source: 'chat', entity_counts: { EMAIL_ADDRESS: 2 }, total_findings: 2 },
  gate_evaluations: {
    gate: 'release',
    model_id: 'credit',
    model_version: '1.2',
    decision: 'pass',
    criteria: [{ name: 'accuracy', passed: true }],
  },
};

/** An app on a fresh temp data dir (the worker and file-backed keys need one), with a strong signing key. */
export const tempApp = (env: NodeJS.ProcessEnv = {}): { app: App; dir: string; cleanup: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cec-'));
  const app = createApp({ dataDir: dir, env: { SVC_SIGNING_KEY: 'test-signing-key-0123456789abcdef', ...env } });
  return {
    app,
    dir,
    cleanup: () => {
      app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

const signingEnv = { SVC_SIGNING_KEY: 'test-signing-key-0123456789abcdef' };

/**
 * Like appPerTest (core/test-support/backends.ts), for bundles: every app has a data dir of its own (bundles, the
 * Ed25519 key and the build worker need one) and, on PostgreSQL, a fresh database shared by `second()`. The
 * first app's env carries the database's SVC_DATABASE_URL, as an app opened from it does, so its build worker
 * connects to the same database.
 */
export const bundleAppPerTest = (
  backend: TestBackend,
  /** Extra env of every app (a function: read when each test starts, e.g. a server's address known only then). */
  extraEnv: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv) = {},
): (() => TestApp & { dir: string }) => {
  const appEnv = (): NodeJS.ProcessEnv => ({ ...signingEnv, ...(typeof extraEnv === 'function' ? extraEnv() : extraEnv) });
  let current: (TestApp & { dir: string }) | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  const open = async (database: Database | undefined, env: NodeJS.ProcessEnv): Promise<{ app: App; dir: string }> => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cec-'));
    const app =
      database === undefined
        ? createApp({ dataDir: dir, env })
        : await openDatabaseApp({ dataDir: dir, env }, database, { closeDatabase: false });
    cleanups.unshift(async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return { app, dir };
  };
  beforeEach(async () => {
    if (backend.name === 'sqlite') {
      const { app, dir } = await open(undefined, appEnv());
      current = { app, dir, second: async () => app };
      return;
    }
    const url = await freshPostgresUrl();
    const connect = async (migrate = false): Promise<Database> => {
      const pool = await connectPostgres(url, { source: 'test database', max: 4 });
      if (migrate) await migratePostgres(pool, postgresMigrations());
      const database = postgresDatabase(pool);
      cleanups.push(() => database.close());
      return database;
    };
    const { app, dir } = await open(await connect(true), { ...appEnv(), SVC_DATABASE_URL: url });
    current = { app, dir, second: async () => (await open(await connect(), appEnv())).app };
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('bundleAppPerTest: only inside a test');
    return current;
  };
};

/** Appends `perDay` records of every schema key for each listed day (event time noon UTC). */
export const seedDays = async (app: App, projectId: string, days: readonly string[], perDay = 1): Promise<void> => {
  const inputs: EvidenceInput[] = [];
  for (const day of days) {
    for (let i = 0; i < perDay; i += 1) {
      for (const key of Object.keys(samplePayloads) as SchemaKey[]) {
        inputs.push({ project_id: projectId, schema_key: key, timestamp: `${day}T12:00:00.000Z`, payload: samplePayloads[key] });
      }
    }
  }
  await appendEvidence(app, inputs);
};

/** Appends `count` synthetic records (the audit examples, one a minute from 2026-01-01) in batches; for benches. */
export const seedExamples = async (app: App, projectId: string, count: number, batchSize = 5_000): Promise<void> => {
  for (let first = 0; first < count; first += batchSize) {
    const size = Math.min(batchSize, count - first);
    await appendEvidence(
      app,
      Array.from({ length: size }, (_, k) => exampleEvidence(first + k, projectId)),
    );
  }
};

/** A range that covers every record seedExamples writes (up to ~2 million minutes). */
export const exampleRange = ['2026-01-01', '2029-12-31'] as const;
