/**
 * Bundles a producer holding both keys can sign, whose bytes a second reader could take for other content:
 * record lines JSON.parse reads one way and a strict parser another (duplicate keys, invalid UTF-8), spellings
 * both read alike (seq 1.0, a blank line), entry names a file system or `unzip` maps to another name. The
 * product verifier and docs/auditor/verify-offline.sh must give each the same verdict.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { computeRecordHash } from '../audit/chain.ts';
import { appendEvidence } from '../audit/store.ts';
import type { EvidenceRecord } from '../audit/types.ts';
import { missingTools } from '../test-support/tools.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { writeProducerSigned } from './producer-signed.test-support.ts';
import { seedDays, tempApp } from './test-support.ts';
import { readAllEntries } from './zip-fixtures.ts';

const run = promisify(execFile);
const missing = missingTools('producer-signed differentials', ['sh', 'unzip', 'sha256sum', 'openssl', 'python3']);
const script = join(import.meta.dirname, '../../docs/auditor/verify-offline.sh');
const key = 'test-signing-key-0123456789abcdef';
const fixture = tempApp();
let pem = '';
let genuine = new Map<string, Buffer>();

/** A payload `levels` containers deep (the payload itself is level 1), within the ingest limit at 64. */
const nested = (levels: number): Record<string, unknown> => {
  let extra: Record<string, unknown> = { v: 1 };
  for (let level = 3; level < levels; level += 1) extra = { d: extra };
  return { source: 'deep', entity_counts: {}, total_findings: 0, extra: { deep: extra } };
};

beforeAll(async () => {
  await seedDays(fixture.app, 'p', ['2026-03-01', '2026-03-02']);
  await appendEvidence(fixture.app, [
    { project_id: 'p', schema_key: 'pii_detections', timestamp: '2026-03-02T13:00:00.000Z', payload: nested(64) },
    {
      project_id: 'p',
      schema_key: 'score_records',
      timestamp: '2026-03-02T14:00:00.000Z',
      payload: { model_id: 'x\ufffdy', model_version: '1', metric: 'accuracy', value: 1, dataset: 'd' },
    },
  ]);
  const built = await new SFCECClient({ app: fixture.app }).buildBundle('p', ['2026-03-01', '2026-03-02']);
  genuine = await readAllEntries(built.zip_path);
  pem = join(fixture.dir, 'producer.pem');
  writeFileSync(pem, (await exportPublicKey(fixture.app)).pem);
}, 60_000);
afterAll(() => fixture.cleanup());

type Entries = Map<string, Buffer>;
const scores = 'score_records/records.ndjson';
const editText = (e: Entries, name: string, edit: (text: string) => string) =>
  e.set(name, Buffer.from(edit((e.get(name) as Buffer).toString('utf8'))));
const lastSeq = (e: Entries): number =>
  (JSON.parse((e.get('chain_proof.json') as Buffer).toString('utf8')) as { segment: { last_seq: number } }).segment.last_seq;

/** Rewrites the record at the head of the segment (nothing links to it) and moves the proof's head to its new hash. */
const editHead = (e: Entries, edit: (record: Record<string, unknown>) => void) => {
  const seq = lastSeq(e);
  for (const [name, bytes] of e) {
    if (!name.endsWith('/records.ndjson')) continue;
    const lines = bytes.toString('utf8').split('\n');
    const at = lines.findIndex((line) => line.includes(`"seq":${seq},`));
    if (at < 0) continue;
    const record = JSON.parse(lines[at] as string) as Record<string, unknown>;
    edit(record);
    const { hash: _hash, ...rest } = record;
    record.hash = computeRecordHash(rest as Omit<EvidenceRecord, 'hash'>);
    lines[at] = JSON.stringify(record);
    e.set(name, Buffer.from(lines.join('\n')));
    const proof = JSON.parse((e.get('chain_proof.json') as Buffer).toString('utf8')) as { segment: { head_hash: unknown } };
    proof.segment.head_hash = record.hash;
    e.set('chain_proof.json', Buffer.from(JSON.stringify(proof)));
  }
};

/** [case, edit, valid, the product's reason when invalid]; the script's by `scriptReason`. */
const cases: Array<[string, (e: Entries) => void, boolean, RegExp | null]> = [
  ['genuine, a payload 64 levels deep and a U+FFFD', () => {}, true, null],
  [
    'a duplicate payload key (JSON.parse keeps the last value, a first-wins parser the other)',
    (e) => editText(e, scores, (t) => t.replace('"value":0.91', '"value":0.5,"value":0.91')),
    false,
    /score_records has a line that is not strict JSON/,
  ],
  [
    'a duplicate envelope member',
    (e) => editText(e, scores, (t) => t.replace('"payload":', '"payload":{"approved":true},"payload":')),
    false,
    /score_records has a line that is not strict JSON/,
  ],
  [
    'invalid UTF-8 that a lenient decoder reads as the U+FFFD the record was hashed with',
    (e) => {
      const bytes = e.get(scores) as Buffer;
      const at = bytes.indexOf(Buffer.from('x\ufffdy'));
      e.set(scores, Buffer.concat([bytes.subarray(0, at + 1), Buffer.from([0xff]), bytes.subarray(at + 4)]));
    },
    false,
    /score_records has a line that is not strict JSON/,
  ],
  [
    'seq written 1.0 (the same number to every JSON reader)',
    (e) => editText(e, scores, (t) => t.replace(/"seq":(\d+),/, '"seq":$1.0,')),
    true,
    null,
  ],
  ['a blank line between records', (e) => editText(e, scores, (t) => t.replace('\n', '\n\n')), true, null],
  [
    'record_id a number',
    (e) =>
      editHead(e, (r) => {
        r.record_id = 7;
      }),
    false,
    /malformed record/,
  ],
  [
    'payload an array',
    (e) =>
      editHead(e, (r) => {
        r.payload = [1];
      }),
    false,
    /malformed record/,
  ],
  [
    'recorded_at a number',
    (e) =>
      editHead(e, (r) => {
        r.recorded_at = 7;
      }),
    false,
    /malformed record/,
  ],
  ['a name with a trailing space', (e) => e.set('notes.txt ', Buffer.from('x')), false, /notes\.txt /],
  ['a name with a trailing dot (Windows drops it: VERIFY.md)', (e) => e.set('VERIFY.md.', Buffer.from('x')), false, /VERIFY\.md\./],
  ['a non-ASCII name (unzip in the C locale shows another name)', (e) => e.set('notes-\u00e9.txt', Buffer.from('x')), false, /notes-/],
  ['a Windows device name', (e) => e.set('con.txt', Buffer.from('x')), false, /con\.txt/],
  ['an NTFS stream name', (e) => e.set('VERIFY.md:hidden', Buffer.from('x')), false, /VERIFY\.md:hidden/],
];

/** The script's reason for the record and name cases (keyed by the product's reason's first word). */
const scriptReason = (reason: RegExp): RegExp =>
  /malformed/.test(reason.source)
    ? /envelope is not exactly the hashed fields plus hash/
    : /strict JSON/.test(reason.source)
      ? /not strict JSON|UnicodeDecodeError/
      : /unsafe entry name/;

const productVerdict = async (zip: string) => {
  const auditor = createApp({ dataDir: ':memory:', env: {} });
  try {
    return await new SFCECClient({ app: auditor }).verifyBundle(zip, { publicKeys: [readFileSync(pem, 'utf8')] });
  } finally {
    auditor.close();
  }
};

const scriptVerdict = async (zip: string): Promise<{ code: number; stdout: string }> => {
  try {
    return { code: 0, stdout: (await run('sh', [script, zip, pem])).stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
};

describe.skipIf(missing !== null)('producer-signed bundles read two ways: the verifier and the offline script agree', () => {
  it.each(cases)(
    '%s',
    async (name, edit, valid, reason) => {
      const entries = new Map(genuine);
      edit(entries);
      const zip = await writeProducerSigned(fixture.app, key, entries, join(fixture.dir, `${name.replace(/\W+/g, '-')}.zip`));
      const [product, offline] = await Promise.all([productVerdict(zip), scriptVerdict(zip)]);
      expect({ product: product.overall_valid, script: offline.code }).toEqual({ product: valid, script: valid ? 0 : 1 });
      if (reason === null) return;
      expect(product.errors.join('\n')).toMatch(reason);
      expect(offline.stdout).toMatch(scriptReason(reason));
    },
    60_000,
  );
});
