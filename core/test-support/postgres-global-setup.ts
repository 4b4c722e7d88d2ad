import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopSharedServer } from './postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's PostgreSQL server lives once a test file has started it (postgres-server.ts). */
    svcPostgresRoot: string;
  }
}

/**
 * Vitest global setup: a directory for the run's PostgreSQL server, which the first test file that needs it
 * starts (a run without PostgreSQL tests pays nothing), and its shutdown when the run ends.
 */
export const setup = (project: TestProject): (() => Promise<void>) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-test-postgres-'));
  project.provide('svcPostgresRoot', root);
  return async () => {
    await stopSharedServer(root);
    rmSync(root, { recursive: true, force: true });
  };
};
