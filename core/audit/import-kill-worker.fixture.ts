// Test helper process: starts an endless NDJSON import into DATA_DIR, touches `staging` once thousands of lines
// are staged, and keeps going until the test kills it with SIGKILL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { importNdjson } from './import.ts';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new TypeError('usage: DATA_DIR');
const app = createApp({ dataDir, env: {} });
async function* lines(): AsyncGenerator<string> {
  for (let i = 0; ; i++) {
    if (i === 5000) writeFileSync(join(dataDir as string, 'staging'), '');
    yield `${JSON.stringify({ ...exampleEvidence(i, 'killed'), record_id: `k-${i}` })}\n`;
  }
}
await importNdjson(app, lines());
