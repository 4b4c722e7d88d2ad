/**
 * The posture clause map (outcome- and cadence-aware, issue 16) vs the plain per-key count it replaced.
 *
 *   node --import tsx bench/clause-map.bench.ts                  # 200k records
 *   BENCH_RECORDS=1000000 node --import tsx bench/clause-map.bench.ts
 *
 * Both read the same store. Baseline: countEvidence (one GROUP BY schema_key over the index). Ours:
 * projectClauseMap for all five frameworks, i.e. per key one GROUP BY series with json_extract on every payload,
 * the month histogram and the rule. The ratio is our time / baseline time; memory is the peak RSS growth during
 * our first pass, which must stay flat (payloads are never loaded into JS); a second call on the unchanged chain is
 * answered from the cache keyed by the chain head.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../core/app.ts';
import { examplePayloads } from '../core/audit/examples.ts';
import { appendEvidence, countEvidence } from '../core/audit/store.ts';
import { type SchemaKey, schemaKeys } from '../core/audit/types.ts';
import { frameworkIds, projectClauseMap } from '../core/cec/clauses/index.ts';
import { printRow, ratio } from './support.ts';

const total = Number(process.env.BENCH_RECORDS ?? 200_000);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-clause-'));
const app = createApp({ dataDir: dir, env: {} });
const start = Date.UTC(2026, 0, 1);
try {
  for (let first = 0; first < total; first += 5000) {
    await appendEvidence(
      app,
      Array.from({ length: Math.min(5000, total - first) }, (_, k) => {
        const i = first + k;
        const key = schemaKeys[i % schemaKeys.length] as SchemaKey;
        // 50 models so the series grouping has real work; one event every 30 s spreads over months.
        const payload = { ...examplePayloads[key], ...(key === 'pii_detections' ? {} : { model_id: `m${i % 50}` }) };
        return { project_id: 'bench', schema_key: key, record_id: `r${i}`, timestamp: new Date(start + i * 30_000).toISOString(), payload };
      }),
    );
  }
  const timeAsync = async (run: () => Promise<unknown>): Promise<number> => {
    const t0 = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };
  const countAll = () => countEvidence(app.database, { projectId: 'bench' });
  await timeAsync(countAll);
  const baseline = Math.min(await timeAsync(countAll), await timeAsync(countAll), await timeAsync(countAll));
  const rssBefore = process.memoryUsage().rss;
  const ours = await timeAsync(() => projectClauseMap(app, { projectId: 'bench', frameworks: frameworkIds }));
  const cached = await timeAsync(() => projectClauseMap(app, { projectId: 'bench', frameworks: frameworkIds }));
  const rssGrowth = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
  printRow(`records`, String(total));
  printRow('countEvidence (baseline)', `${baseline.toFixed(1)} ms`);
  printRow('projectClauseMap, 5 frameworks', `${ours.toFixed(1)} ms`);
  printRow('ratio ours / baseline', ratio(ours, baseline));
  printRow('same again, unchanged chain (cached)', `${cached.toFixed(1)} ms (${ratio(cached, baseline)})`);
  printRow('RSS growth during the clause map', `${rssGrowth.toFixed(1)} MB`);
} finally {
  app.close();
  rmSync(dir, { recursive: true, force: true });
}
