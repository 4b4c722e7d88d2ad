// Test helper process (writers named a and b): appends `batches` batches of 20 records to project `shared` as fast
// as it can, in DATA_DIR's SQLite file, or on PostgreSQL when SVC_DATABASE_URL is set (openApp, as production).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidence } from './store.ts';
import { databaseUrlEnv } from './worker-env.fixture.ts';

const [dataDir, name, batches] = process.argv.slice(2);
if (!dataDir || !name || !batches) throw new TypeError('usage: DATA_DIR NAME BATCHES');
const app = await openApp({ dataDir, env: databaseUrlEnv() });
// Barrier: start appending only once both writers are up, so their transactions really race.
writeFileSync(join(dataDir, `ready-${name}`), '');
const deadline = Date.now() + 30_000;
while (!['a', 'b'].every((w) => existsSync(join(dataDir, `ready-${w}`))) && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 5));
}
for (let b = 0; b < Number(batches); b++) {
  await appendEvidence(
    app,
    Array.from({ length: 20 }, (_, i) => ({ ...exampleEvidence(i, 'shared'), record_id: `${name}-${b}-${i}` })),
  );
}
await app.close();
