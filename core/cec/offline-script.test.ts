/**
 * docs/auditor/verify-offline.sh (stock tools only) and the product verifier must reach the same verdict on
 * the same bundles: genuine ones, a stock `zip -r` re-zip, and every tamper class. Built with real parts:
 * openssl ts as the TSA, python3 zipfile and Info-ZIP zip for the hostile archives.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testBackends } from '../test-support/backends.ts';
import { missingTools } from '../test-support/tools.ts';
import { createApp } from '../app.ts';
import { anchorHead } from '../audit/anchors/store.ts';
import { appPerDescribe, type DescribeApp } from './app-per-describe.test-support.ts';
import { dropAndRelink } from './anchors.test-support.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { sha256 } from './manifest.ts';
import { seedDays, tempApp } from './test-support.ts';
import { createTimestamp } from './timestamp/index.ts';
import { createStub } from './timestamp/stub.ts';
import { startTestTsa, type TestTsa } from './timestamp/test-tsa.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

const run = promisify(execFile);
// The script's own tools, plus the TSA (openssl ts) and the re-zip (Info-ZIP zip) the cases are built with.
const missing = missingTools('verify-offline.sh against the product verifier', ['sh', 'unzip', 'zip', 'sha256sum', 'openssl', 'python3']);
const script = join(import.meta.dirname, '../../docs/auditor/verify-offline.sh');

let tsa: TestTsa;
let otherTsa: TestTsa;
let caPem = '';

type Entries = Map<string, Buffer>;
const json = (bytes: Buffer | undefined) => JSON.parse((bytes as Buffer).toString('utf8'));
const text = (bytes: Buffer | undefined) => (bytes as Buffer).toString('utf8');

beforeAll(async () => {
  tsa = await startTestTsa();
  otherTsa = await startTestTsa();
  caPem = join(tsa.dir, 'ca.pem');
});
afterAll(async () => {
  await tsa.close();
  await otherTsa.close();
});

describe.skipIf(missing !== null).each(testBackends)('verify-offline.sh and the product verifier on bundles built on $name', (backend) => {
  /**
   * SQLite: every case. PostgreSQL: the bundles built from its stored evidence (genuine with anchors, the insider
   * rewrite, stub timestamp with an Ed25519 checkpoint); the tamper variants edit a built ZIP and never touch the
   * database, so they are not run twice.
   */
  const full = backend.name === 'sqlite';
  if (!full)
    console.warn(
      'offline-script on PostgreSQL: only the bundles built from stored evidence; the storage-free tamper variants run on SQLite',
    );
  let fixture: DescribeApp;
  let plain: DescribeApp;
  let dir = '';
  let pubPem = '';
  let plainPubPem = '';
  const cases: { name: string; zip: string; key: string; valid: boolean }[] = [];
  const fixtureApp = appPerDescribe(backend, () => ({ SVC_TSA_URL: tsa.url }));
  const plainApp = appPerDescribe(backend);

  beforeAll(async () => {
    fixture = fixtureApp();
    plain = plainApp();
    dir = join(fixture.dir, 'cases');
    mkdirSync(dir);
    const app = fixture.app;
    // Anchors at seq 12 and 24 (inside the 02-02..02-04 segment) and 36 (after it, reached by a bridge); the
    // 02-06 records land inside the segment as witnesses.
    await seedDays(app, 'p', ['2026-02-01', '2026-02-02']);
    await anchorHead(app, 'p');
    await seedDays(app, 'p', ['2026-02-06', '2026-02-03']);
    await anchorHead(app, 'p');
    await seedDays(app, 'p', ['2026-02-04', '2026-02-05']);
    await anchorHead(app, 'p');
    const client = new SFCECClient({ app });
    // Copied: rebuilding the same project and range (the insider case below) replaces the file.
    const genuine = join(dir, 'genuine.zip');
    copyFileSync((await client.buildBundle('p', ['2026-02-02', '2026-02-04'])).zip_path, genuine);
    pubPem = join(dir, 'producer.pem');
    writeFileSync(pubPem, (await exportPublicKey(app)).pem);
    const wrongPem = join(dir, 'wrong.pem');
    writeFileSync(wrongPem, generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
    const entries = await readAllEntries(genuine);

    const add = (name: string, zip: string, valid: boolean, key = pubPem) => cases.push({ name, zip, key, valid });
    const variant = async (name: string, valid: boolean, change: (e: Entries) => void) => {
      const copy = new Map(entries);
      change(copy);
      const zip = join(dir, `${name}.zip`);
      await writeEntries(zip, copy);
      add(name, zip, valid);
    };
    const editLines = (e: Entries, entry: string, edit: (lines: string[]) => string[]) =>
      e.set(entry, Buffer.from(`${edit(text(e.get(entry)).trimEnd().split('\n')).join('\n')}\n`));
    const editJson = (e: Entries, entry: string, edit: (value: Record<string, unknown>) => void) => {
      const value = json(e.get(entry));
      edit(value);
      e.set(entry, Buffer.from(JSON.stringify(value)));
    };

    add('genuine', genuine, true);
    const unpacked = join(dir, 'unpacked');
    await run('unzip', ['-q', genuine, '-d', unpacked]);
    if (full) {
      const other = await readAllEntries((await client.buildBundle('p', ['2026-02-01', '2026-02-01'])).zip_path);
      await variant('rewritten-by-yazl', true, () => {});
      await run('zip', ['-q', '-r', join(dir, 'zip-r.zip'), '.'], { cwd: unpacked });
      add('re-zipped with zip -r', join(dir, 'zip-r.zip'), true);
      await run('zip', ['-q', '-r', '-fz', join(dir, 'zip64.zip'), '.'], { cwd: unpacked });
      add('re-zipped with zip -r -fz (ZIP64 records, as the builder writes past 4 GiB)', join(dir, 'zip64.zip'), true);
      add('wrong public key', genuine, false, wrongPem);
      await variant('edited record', false, (e) =>
        editLines(e, 'score_records/records.ndjson', (l) => [l[0]?.replace('"value":0.91', '"value":0.99') ?? '', ...l.slice(1)]),
      );
      await variant('extra envelope field', false, (e) =>
        editLines(e, 'gate_evaluations/records.ndjson', (l) => [`${l[0]?.slice(0, -1)},"approved_by":"ceo"}`, ...l.slice(1)]),
      );
      await variant('dropped record', false, (e) => editLines(e, 'drift_events/records.ndjson', (l) => l.slice(1)));
      await variant('reordered records', false, (e) =>
        editLines(e, 'bias_reports/records.ndjson', (l) => [l[1] ?? '', l[0] ?? '', ...l.slice(2)]),
      );
      await variant('forged manifest entry digest', false, (e) =>
        editJson(e, 'manifest.json', (m) => {
          (m.entries as Record<string, { sha256: string }>)['clause_map.json'] = { sha256: 'a'.repeat(64), size: 10 } as never;
        }),
      );
      await variant('unlisted extra file', false, (e) => e.set('notes.txt', Buffer.from('approved\n')));
      await variant('case-folded duplicate name', false, (e) => e.set('verify.md', Buffer.from('# other\n')));
      await variant('signature swapped from another bundle', false, (e) =>
        e.set('attestation.json', other.get('attestation.json') as Buffer),
      );
      await variant('attestation removed', false, (e) => e.delete('attestation.json'));
      await variant('stub-swapped timestamp', false, (e) =>
        e.set('rfc3161_timestamp.tsr', createStub(sha256(e.get('manifest.json') as Buffer), new Date())),
      );
      const otherToken = await (async () => {
        const probe = tempApp({ SVC_TSA_URL: otherTsa.url });
        try {
          return (await createTimestamp(probe.app, sha256(entries.get('manifest.json') as Buffer))).token;
        } finally {
          probe.cleanup();
        }
      })();
      await variant('token from another TSA', false, (e) => e.set('rfc3161_timestamp.tsr', otherToken));
      await variant('token byte flipped', false, (e) => {
        const token = Buffer.from(e.get('rfc3161_timestamp.tsr') as Buffer);
        token[token.length - 10] = (token[token.length - 10] as number) ^ 0xff;
        e.set('rfc3161_timestamp.tsr', token);
      });
      await variant('changed witness', false, (e) =>
        editJson(e, 'chain_proof.json', (p) => {
          ((p.witnesses as { hash: string }[])[0] as { hash: string }).hash = 'f'.repeat(64);
        }),
      );
      await variant('anchor head edited', false, (e) =>
        editJson(e, 'anchors.json', (a) => {
          ((a.anchors as { head_hash: string }[])[0] as { head_hash: string }).head_hash = 'e'.repeat(64);
        }),
      );
      await variant('anchors withheld', false, (e) => e.delete('anchors.json'));
    }

    // The insider rewrite: drop the first gate evaluation, re-link, rebuild with both keys and a fresh token.
    const gate = await app.database.one(
      z.object({ seq: z.coerce.number() }),
      "SELECT seq FROM audit_records WHERE project_id = 'p' AND schema_key = 'gate_evaluations' AND seq > 6 ORDER BY seq LIMIT 1",
    );
    await dropAndRelink(app, 'p', gate?.seq ?? 0);
    add('insider rewrite after an anchor', (await client.buildBundle('p', ['2026-02-02', '2026-02-04'])).zip_path, false);

    // Without a TSA: stub timestamp and Ed25519 checkpoints.
    await seedDays(plain.app, 's', ['2026-02-01']);
    await anchorHead(plain.app, 's');
    plainPubPem = join(dir, 'plain.pem');
    writeFileSync(plainPubPem, (await exportPublicKey(plain.app)).pem);
    add(
      'genuine, stub timestamp and Ed25519 checkpoint',
      (await new SFCECClient({ app: plain.app }).buildBundle('s', ['2026-02-01', '2026-02-01'])).zip_path,
      true,
      plainPubPem,
    );
  }, 120_000);

  /** The product's verdict as an auditor gets it: no HMAC key, the producer's public key and the TSA root given. */
  const productVerdict = async (zip: string, key: string): Promise<boolean> => {
    const auditor = createApp({ dataDir: ':memory:', env: {} });
    try {
      const result = await new SFCECClient({ app: auditor }).verifyBundle(zip, {
        publicKeys: [readFileSync(key, 'utf8')],
        tsaCaPem: [readFileSync(caPem, 'utf8')],
      });
      return result.overall_valid;
    } finally {
      auditor.close();
    }
  };

  const scriptVerdict = async (zip: string, key: string): Promise<{ code: number; stdout: string }> => {
    try {
      const { stdout } = await run('sh', [script, zip, key, caPem]);
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string };
      return { code: failed.code, stdout: failed.stdout };
    }
  };

  describe('verify-offline.sh and the product verifier agree', () => {
    it('on at least 20 bundles: genuine, re-zipped and every tamper class', async () => {
      expect(cases.length).toBeGreaterThanOrEqual(full ? 20 : 3);
      const verdicts = [];
      // A few at a time: each script run is a handful of short processes.
      for (let i = 0; i < cases.length; i += 4) {
        const batch = cases.slice(i, i + 4).map(async (c) => {
          const [product, offline] = await Promise.all([productVerdict(c.zip, c.key), scriptVerdict(c.zip, c.key)]);
          return { name: c.name, expected: c.valid, product, script: offline.code === 0, exit: offline.code, out: offline.stdout };
        });
        verdicts.push(...(await Promise.all(batch)));
      }
      const wrong = verdicts.filter((v) => v.product !== v.expected || v.script !== v.expected || (v.exit !== 0 && v.exit !== 1));
      expect(
        wrong.map(({ out, ...v }) => ({
          ...v,
          out: out
            .split('\n')
            .filter((l) => l.startsWith('FAIL') || l.startsWith('   '))
            .join(' | '),
        })),
      ).toEqual([]);
    }, 300_000);

    it('prints each check and the anchors of a genuine bundle', async () => {
      const genuine = cases[0] as { zip: string; key: string };
      const { code, stdout } = await scriptVerdict(genuine.zip, genuine.key);
      expect(code).toBe(0);
      for (const check of ['archive', 'manifest', 'entries', 'signature', 'timestamp', 'chain', 'anchors (heads)'])
        expect(stdout).toMatch(new RegExp(`^PASS  ${check.replace(/[()]/g, '\\$&')}`, 'm'));
      expect(stdout).toMatch(/^PASS {2}anchor seq \d+: RFC 3161 token over the anchor statement$/m);
      expect(stdout).toMatch(/RESULT: VALID/);
    });

    it("the commands of the bundle's VERIFY.md work as written, and the signature step refuses a wrong key", async () => {
      const unpacked = join(dir, 'unpacked');
      const markdown = readFileSync(join(unpacked, 'VERIFY.md'), 'utf8');
      const commands = markdown
        .split('\n')
        .filter((line) => line.startsWith('    '))
        .map((line) => line.trim())
        .filter((line) => !line.startsWith('sh verify-offline.sh'));
      expect(commands.length).toBeGreaterThanOrEqual(6);
      const shell = (command: string, key: string) =>
        run('sh', ['-c', command], { cwd: unpacked, env: { ...process.env, PUB: key, ROOT: caPem } });
      const outputs: string[] = [];
      for (const command of commands) outputs.push((await shell(command, pubPem)).stdout);
      const all = outputs.join('\n');
      expect(all).toContain('Signature Verified Successfully');
      expect(all).toContain('Verification: OK');
      expect(all).toMatch(/^Time stamp: /m);
      const pkeyutl = commands.find((c) => c.startsWith('openssl pkeyutl')) as string;
      await expect(shell(pkeyutl, join(dir, 'wrong.pem'))).rejects.toThrow();
    });
  });
});
