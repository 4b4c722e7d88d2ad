// Test helper process: appends batches of 500 records to project `crash` in DATA_DIR until it is killed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidenceAsync } from './store.ts';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new TypeError('usage: DATA_DIR');
const app = createApp({ dataDir, env: {} });
for (let b = 0; ; b++) {
  await appendEvidenceAsync(
    app,
    Array.from({ length: 500 }, (_, i) => exampleEvidence(b * 500 + i, 'crash')),
  );
  if (b === 2) writeFileSync(join(dataDir, 'running'), '');
}
