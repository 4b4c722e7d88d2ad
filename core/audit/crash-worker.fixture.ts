// Test helper process: appends batches of 500 records to project `crash` until it is killed, in DATA_DIR's SQLite
// file, or on PostgreSQL when SVC_DATABASE_URL is set (openApp, as production).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidence } from './store.ts';
import { databaseUrlEnv } from './worker-env.fixture.ts';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new TypeError('usage: DATA_DIR');
const app = await openApp({ dataDir, env: databaseUrlEnv() });
for (let b = 0; ; b++) {
  await appendEvidence(
    app,
    Array.from({ length: 500 }, (_, i) => exampleEvidence(b * 500 + i, 'crash')),
  );
  if (b === 2) writeFileSync(join(dataDir, 'running'), '');
}
