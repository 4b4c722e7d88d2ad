// `npm run bench`: runs every bench/*.bench.ts in its own process, one after another (they measure, so they
// must not compete for the two cores), and prints their tables. `npm run bench -- pii` runs the matching ones.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const filter = process.argv[2] ?? '';
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts') && name.includes(filter))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
