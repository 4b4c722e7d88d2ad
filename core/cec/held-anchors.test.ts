import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorHead } from '../audit/anchors/store.ts';
import { runSvc } from '../cli/test-support.ts';
import { dropAndRelink } from './anchors.test-support.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { seedDays, tempApp } from './test-support.ts';

// `svc verify --anchors FILE` (issue 10): the auditor saved `svc anchors export` earlier; the verifier checks
// the bundle's re-derived chain against those anchors, not only against the anchors the bundle carries.
// Ed25519 checkpoints (no TSA configured), verified with the producer's published key.
const producer = tempApp();
const days = ['2026-06-01', '2026-06-02', '2026-06-03'];
const exportAnchors = async (file: string, format = 'ndjson') => {
  const run = await runSvc(['anchors', 'export', '--project', 'h', '--format', format, '--out', file, '--data-dir', producer.dir]);
  expect(run.code).toBe(0);
  return file;
};
let pemFile = '';
let zip = '';
let held = '';

beforeAll(async () => {
  // Anchors after day 1 (seq 6) and day 2 (seq 12); day 3 (seq 13..18) is covered by neither.
  seedDays(producer.app, 'h', [days[0] as string]);
  await anchorHead(producer.app, 'h');
  seedDays(producer.app, 'h', [days[1] as string]);
  await anchorHead(producer.app, 'h');
  seedDays(producer.app, 'h', [days[2] as string]);
  zip = (await new SFCECClient({ app: producer.app }).buildBundle('h', [days[0] as string, days[2] as string])).zip_path;
  pemFile = join(producer.dir, 'producer.pem');
  writeFileSync(pemFile, (await exportPublicKey(producer.app)).pem);
  held = await exportAnchors(join(producer.dir, 'held.ndjson'));
}, 60_000);
afterAll(() => producer.cleanup());

const verify = (bundle: string, anchorsFile: string) => runSvc(['verify', bundle, '--public-key', pemFile, '--anchors', anchorsFile]);

describe('svc verify --anchors', () => {
  it('passes with the genuine export, NDJSON or JSON, and says how many held anchors it compared', async () => {
    const ndjson = await verify(zip, held);
    expect([ndjson.code, ndjson.stderr]).toEqual([0, '']);
    expect(ndjson.stdout).toMatch(/2 of 2 held anchor\(s\) match the re-derived chain \(the bundle covers seq 1\.\.18\)/);
    const json = await verify(zip, await exportAnchors(join(producer.dir, 'held.json'), 'json'));
    expect(json.code).toBe(0);
  });

  it('compares an anchor just before the segment with the hash the segment starts from; others are out of range', async () => {
    const day3 = (await new SFCECClient({ app: producer.app }).buildBundle('h', [days[2] as string, days[2] as string])).zip_path;
    const run = await verify(day3, held);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/1 of 2 held anchor\(s\) match the re-derived chain \(the bundle covers seq 13\.\.18\)/);
    const tampered = JSON.parse(readFileSync(held, 'utf8').split('\n')[1] as string) as { head_hash: string };
    tampered.head_hash = 'f'.repeat(64);
    const file = join(producer.dir, 'edge.ndjson');
    writeFileSync(file, `${JSON.stringify(tampered)}\n`);
    const edge = await verify(day3, file);
    expect(edge.code).toBe(1);
    expect(edge.stdout).toMatch(
      /held anchors: the anchor you hold at seq 12 states head f{64}, but the hash the bundle's segment starts from has/,
    );
  });

  it('fails when a held head hash differs from the one the bundle re-derives', async () => {
    const lines = readFileSync(held, 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0] as string) as { seq: number; head_hash: string };
    first.head_hash = '0'.repeat(63) + '1';
    const file = join(producer.dir, 'tampered.ndjson');
    writeFileSync(file, `${[JSON.stringify(first), ...lines.slice(1)].join('\n')}\n`);
    const run = await verify(zip, file);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/: INVALID/);
    expect(run.stdout).toMatch(
      /held anchors: the anchor you hold at seq 6 states head 0{63}1, but the bundle's re-derived chain has [0-9a-f]{64}: history differs from what was anchored/,
    );
  });

  it('catches an insider who rewrote history and re-anchored it: the bundle alone verifies, the held anchors do not', async () => {
    const insider = tempApp();
    try {
      seedDays(insider.app, 'h', [days[0] as string]);
      await anchorHead(insider.app, 'h'); // seq 6
      const savedFile = join(insider.dir, 'saved.ndjson');
      expect((await runSvc(['anchors', 'export', '--project', 'h', '--out', savedFile, '--data-dir', insider.dir])).code).toBe(0);
      seedDays(insider.app, 'h', [days[1] as string]);
      // Drop seq 3, re-link, replace the anchors with fresh ones of the rewritten chain, rebuild and re-sign.
      await dropAndRelink(insider.app, 'h', 3);
      insider.app.db.prepare("DELETE FROM audit_anchors WHERE project_id = 'h'").run();
      await anchorHead(insider.app, 'h');
      const rewritten = (await new SFCECClient({ app: insider.app }).buildBundle('h', [days[0] as string, days[1] as string])).zip_path;
      const pem = join(insider.dir, 'insider.pem');
      writeFileSync(pem, (await exportPublicKey(insider.app)).pem);
      expect((await runSvc(['verify', rewritten, '--public-key', pem])).code).toBe(0);
      const run = await runSvc(['verify', rewritten, '--public-key', pem, '--anchors', savedFile]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        /held anchors: the anchor you hold at seq 6 states head [0-9a-f]{64}, but the bundle's re-derived chain has/,
      );
    } finally {
      insider.cleanup();
    }
  });

  it("refuses another project's export, and an empty, malformed or mixed file, with exit 2 and the reason", async () => {
    const other = JSON.parse(readFileSync(held, 'utf8').split('\n')[0] as string) as { project_id: string };
    const write = (name: string, text: string) => {
      const file = join(producer.dir, name);
      writeFileSync(file, text);
      return file;
    };
    const foreign = await verify(zip, write('other.ndjson', `${JSON.stringify({ ...other, project_id: 'someone-else' })}\n`));
    expect([foreign.code, foreign.stdout]).toEqual([2, '']);
    expect(foreign.stderr).toMatch(
      /--anchors holds anchors of project "someone-else", but the bundle is of project "h": refused, give that project's anchors export/,
    );
    const cases: Array<[string, RegExp]> = [
      ['', /holds no anchors/],
      ['not json\n', /line 1 is not valid JSON/],
      ['{"seq": 1}\n', /line 1 is not an anchor: /],
      [`${JSON.stringify(other)}\n${JSON.stringify({ ...other, project_id: 'x' })}\n`, /mixes projects/],
      [`${JSON.stringify(other)}\n${JSON.stringify(other)}\n`, /two anchors at seq 6/],
    ];
    for (const [text, reason] of cases) {
      const run = await verify(zip, write('bad.ndjson', text));
      expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(reason)]);
    }
    const missing = await verify(zip, join(producer.dir, 'nope.ndjson'));
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/Cannot read the anchors file/)]);
  });
});
