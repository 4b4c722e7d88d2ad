// Test helper process (writers named a and b): appends `batches` batches of 20 records to project `shared` in DATA_DIR as fast as it can.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidenceAsync } from './store.ts';

const [dataDir, name, batches] = process.argv.slice(2);
if (!dataDir || !name || !batches) throw new TypeError('usage: DATA_DIR NAME BATCHES');
const app = createApp({ dataDir, env: {} });
// Barrier: start appending only once both writers are up, so their transactions really race.
writeFileSync(join(dataDir, `ready-${name}`), '');
const deadline = Date.now() + 30_000;
while (!['a', 'b'].every((w) => existsSync(join(dataDir, `ready-${w}`))) && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 5));
}
for (let b = 0; b < Number(batches); b++) {
  await appendEvidenceAsync(
    app,
    Array.from({ length: 20 }, (_, i) => ({ ...exampleEvidence(i, 'shared'), record_id: `${name}-${b}-${i}` })),
  );
}
app.close();
