import { join } from 'node:path';

/** The SQLite file of a data dir (read snapshots open it again, read-only: `Database.snapshot()`). */
export const databaseFile = (dataDir: string): string => join(dataDir, 'workbench.db');
