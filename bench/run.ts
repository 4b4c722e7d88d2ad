// `npm run bench`: the benchmark table of issue 12 (plus bundle-verify, issue 10). Runs each bench in its own
// process, one after another (they measure, so they must not compete for the cores), then prints every figure
// it recorded (bench/report.ts recordFigure) as a table: ratio against a baseline measured in the same run, aim,
// met or missed, load average. The table goes to bench/latest.md; `--write-readme` also writes it into README.md.
//
//   npm run bench                         # the table's benches at the issue's sizes (about 10 minutes, quiet 2 cores)
//   npm run bench -- --quick              # smaller sizes, a couple of minutes: to check the benches run
//   npm run bench -- --write-readme       # and update README.md's table (marked as under load when it was)
//   npm run bench -- --all                # every bench/*.bench.ts (PII engine, storage, clause map, dispatch...)
//   npm run bench -- pii                  # the benches whose file name contains `pii`
//
// Sizes: BENCH_INGEST_RECORDS (100000,1000000), BENCH_BUILD_RECORDS (50000,1000000), BENCH_VERIFY_RECORDS
// (50000,1000000), BENCH_SCIM_USERS (10000,100000), BENCH_SECONDS (5, HTTP load per route), BENCH_RUNS (7, processes per
// start-up figure). A bench's own variables (BENCH_RECORDS, BENCH_SIZES...) apply when it is run alone.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedFigure } from './report.ts';
import { renderTable, type TableBench, tableBenches, withBenchTable } from './table.ts';

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(name);
const filter = args.find((arg) => !arg.startsWith('--'));
const quick = flag('--quick');
const dir = import.meta.dirname;
const root = join(dir, '..');

/** Sizes per bench: the issue's by default, smaller with --quick; BENCH_* overrides either. */
const sized = (variable: string, full: string, small: string): string => process.env[variable] ?? (quick ? small : full);

/** The environment each bench of the table gets. */
const envOf: Readonly<Record<TableBench, NodeJS.ProcessEnv>> = {
  ingest: { BENCH_RECORDS: sized('BENCH_INGEST_RECORDS', '100000,1000000', '20000,100000') },
  'bundle-build': { BENCH_RECORDS: sized('BENCH_BUILD_RECORDS', '50000,1000000', '20000,100000') },
  'bundle-verify': {
    BENCH_SIZES: sized('BENCH_VERIFY_RECORDS', '50000,1000000', '20000,100000'),
    BENCH_REPEAT: process.env.BENCH_REPEAT ?? (quick ? '1' : '3'),
  },
  'pii-http': { PII_HTTP_SECONDS: process.env.BENCH_SECONDS ?? (quick ? '2' : '5') },
  'cli-startup': { BENCH_RUNS: process.env.BENCH_RUNS ?? (quick ? '3' : '7') },
  scim: {
    SCIM_BENCH_USERS: sized('BENCH_SCIM_USERS', '10000,100000', '2000,20000'),
    BENCH_SECONDS: process.env.BENCH_SECONDS ?? (quick ? '1' : '3'),
  },
};

const envByFile = new Map(tableBenches.map((name) => [`${name}.bench.ts`, envOf[name]]));
const table: readonly string[] = [...envByFile.keys()];
const everyBench = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort();
const selected =
  filter !== undefined
    ? everyBench.filter((name) => name.includes(filter))
    : flag('--all')
      ? [...table, ...everyBench.filter((name) => !table.includes(name))]
      : table;

// Every bench that starts `svc` runs the prebuilt CLI, as `npx svc` does after `npm ci` (not the sources under tsx).
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { stdio: 'inherit' });
if (build.status !== 0) throw new Error('npm run build:cli failed');

const work = mkdtempSync(join(tmpdir(), 'svc-bench-run-'));
const results = join(work, 'figures.ndjson');
writeFileSync(results, '');
const started = new Date();
const loadAtStart = loadavg()[0] ?? 0;
let failed = 0;
const silent: string[] = [];
try {
  for (const file of selected) {
    console.log(`\n=== ${file} (load average ${loadavg()[0]?.toFixed(1)})`);
    const before = readFileSync(results, 'utf8').length;
    const env = {
      ...process.env,
      ...envByFile.get(file),
      BENCH_RESULTS: results,
      BENCH_ZIP_DIR: process.env.BENCH_ZIP_DIR ?? join(work, 'zips'),
    };
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit', env });
    if (run.status !== 0) failed++;
    if (table.includes(file) && readFileSync(results, 'utf8').length === before) silent.push(file);
  }
  const figures = readFileSync(results, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as RecordedFigure);
  const notRun = table.filter((file) => !selected.includes(file));
  const command = `npm run bench${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`;
  const markdown = renderTable(figures, {
    started: started.toISOString().replace(/\.\d+Z$/, 'Z'),
    minutes: (Date.now() - started.getTime()) / 60_000,
    command,
    machine: `${availableParallelism()} cores, Node ${process.version}`,
    loadAtStart,
    loadAtEnd: loadavg()[0] ?? 0,
    missing: [...silent, ...notRun].map((file) => file.replace('.bench.ts', '')),
  });
  console.log(`\n=== Benchmark table\n\n${markdown}\n`);
  // bench/latest.md is the whole table's: a partial run (a filter) does not replace it.
  if (notRun.length === 0) {
    writeFileSync(join(dir, 'latest.md'), `# Latest benchmark figures\n\n${markdown}\n`);
    console.log('written to bench/latest.md');
  }
  if (flag('--write-readme')) {
    const readme = join(root, 'README.md');
    writeFileSync(readme, withBenchTable(readFileSync(readme, 'utf8'), markdown));
    console.log('written to README.md (## Benchmarks)');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = failed > 0 ? 1 : 0;
