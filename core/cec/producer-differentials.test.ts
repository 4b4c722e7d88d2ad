/**
 * Bundles a producer holding both keys can sign, whose bytes a second reader could take for other content:
 * record lines JSON.parse reads one way and a strict parser another (duplicate keys, invalid UTF-8), spellings
 * both read alike (seq 1.0, a blank line), entry names a file system or `unzip` maps to another name. The
 * product verifier and docs/auditor/verify-offline.sh must give each the same verdict.
 */
import { execFile } from 'node:child_process';
import { sign } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { computeRecordHash, jcs } from '../audit/chain.ts';
import { anchorHead } from '../audit/anchors/store.ts';
import { appendEvidence } from '../audit/store.ts';
import type { EvidenceRecord } from '../audit/types.ts';
import { missingTools } from '../test-support/tools.ts';
import { SFCECClient } from './client.ts';
import { type Attestation, attestationSigningInput } from './attestation.ts';
import { attestationKey, exportPublicKey } from './ed25519.ts';
import { writeProducerSigned } from './producer-signed.test-support.ts';
import { seedDays, tempApp } from './test-support.ts';
import { hmacSha256 } from './signing-key.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

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
  // An Ed25519 checkpoint (no TSA configured) inside the segment.
  await anchorHead(fixture.app, 'p');
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

/** Changes members of the record at the head of the segment (nothing links to it) and moves the proof's head to its new hash. */
const editHead = (e: Entries, change: Record<string, unknown>) => {
  const seq = lastSeq(e);
  for (const [name, bytes] of e) {
    if (!name.endsWith('/records.ndjson')) continue;
    const lines = bytes.toString('utf8').split('\n');
    const at = lines.findIndex((line) => line.includes(`"seq":${seq},`));
    if (at < 0) continue;
    const record = JSON.parse(lines[at] as string) as Record<string, unknown>;
    Object.assign(record, change);
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
  ['record_id a number', (e) => editHead(e, { record_id: 7 }), false, /malformed record/],
  ['payload an array', (e) => editHead(e, { payload: [1] }), false, /malformed record/],
  ['recorded_at a number', (e) => editHead(e, { recorded_at: 7 }), false, /malformed record/],
  [
    'a manifest whose total_records is not the sum of its record_counts',
    (e) => editText(e, 'manifest.json', (t) => t.replace(/"total_records":\d+/, '"total_records":999')),
    false,
    /manifest totals 999 records, its folders hold \d+/,
  ],
  [
    'chain_proof.json repeating a key (a first-wins parser sees no witnesses)',
    (e) => editText(e, 'chain_proof.json', (t) => t.replace(/^\{/, '{"witnesses":[],')),
    false,
    /chain_proof\.json repeats a key/,
  ],
  [
    'anchors.json repeating a key',
    (e) => editText(e, 'anchors.json', (t) => t.replace(/^\{/, '{"anchors":[],')),
    false,
    /anchors\.json repeats a key/,
  ],
  [
    'anchors.json listing its anchor twice',
    (e) => editText(e, 'anchors.json', (t) => t.replace(/"anchors":\[(\{[^\]]*\})\]/, '"anchors":[$1,$1]')),
    false,
    /two anchors at seq \d+/,
  ],
  [
    'chain_proof.json of schema_version 2',
    (e) => editText(e, 'chain_proof.json', (t) => t.replace('"schema_version":1', '"schema_version":2')),
    false,
    /chain_proof\.json does not have the expected structure/,
  ],
  [
    'anchors.json with an extra member (its schema is strict)',
    (e) => editText(e, 'anchors.json', (t) => t.replace(/^\{/, '{"approved_by":"ceo",')),
    false,
    /anchors\.json does not have the expected structure/,
  ],
  [
    'chain_proof.json after a byte-order mark',
    (e) => editText(e, 'chain_proof.json', (t) => `\ufeff${t}`),
    false,
    /chain_proof\.json is not valid UTF-8 JSON/,
  ],
  ['a name with a trailing space', (e) => e.set('notes.txt ', Buffer.from('x')), false, /notes\.txt /],
  ['a name with a trailing dot (Windows drops it: VERIFY.md)', (e) => e.set('VERIFY.md.', Buffer.from('x')), false, /VERIFY\.md\./],
  ['a non-ASCII name (unzip in the C locale shows another name)', (e) => e.set('notes-\u00e9.txt', Buffer.from('x')), false, /notes-/],
  ['a Windows device name', (e) => e.set('con.txt', Buffer.from('x')), false, /con\.txt/],
  ['an NTFS stream name', (e) => e.set('VERIFY.md:hidden', Buffer.from('x')), false, /VERIFY\.md:hidden/],
];

/** The script's reason for each product reason (an entry name by default). */
const scriptReasons: Array<[RegExp, RegExp]> = [
  [/manifest totals/, /manifest totals 999 records/],
  [/two anchors/, /two anchors at seq \d+/],
  [/expected structure/, /does not have the expected structure/],
  [/malformed/, /envelope is not exactly the hashed fields plus hash/],
  [/strict JSON/, /not strict JSON|UnicodeDecodeError/],
  [/repeats a key/, /duplicate key/],
  [/not valid UTF-8 JSON/, /Unexpected UTF-8 BOM/],
];
const scriptReason = (reason: RegExp): RegExp => scriptReasons.find(([product]) => product.test(reason.source))?.[1] ?? /unsafe entry name/;

const productVerdict = async (zip: string, tsaRoot?: string) => {
  const auditor = createApp({ dataDir: ':memory:', env: {} });
  try {
    return await new SFCECClient({ app: auditor }).verifyBundle(zip, {
      publicKeys: [readFileSync(pem, 'utf8')],
      ...(tsaRoot === undefined ? {} : { tsaCaPem: [readFileSync(tsaRoot, 'utf8')] }),
    });
  } finally {
    auditor.close();
  }
};

const scriptVerdict = async (zip: string, tsaRoot?: string): Promise<{ code: number; stdout: string }> => {
  try {
    return { code: 0, stdout: (await run('sh', [script, zip, pem, ...(tsaRoot === undefined ? [] : [tsaRoot])])).stdout };
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

/**
 * JWS protected headers the producer's key signed (JWS input built by hand), with the payload the product
 * expects: only `{"alg":"EdDSA","kid":…}` in JCS form has one reading (a `crit` extension the script ignored,
 * `b64: false` jose accepted, a duplicate `alg` JSON.parse resolves to its last value).
 */
const headers: Array<[string, (kid: string) => string, boolean]> = [
  ['the header the product writes', (kid) => `{"alg":"EdDSA","kid":"${kid}"}`, true],
  ['a critical extension the verifier does not know', (kid) => `{"alg":"EdDSA","crit":["exp"],"exp":1,"kid":"${kid}"}`, false],
  ['an unencoded payload (b64: false)', (kid) => `{"alg":"EdDSA","b64":false,"crit":["b64"],"kid":"${kid}"}`, false],
  ['a duplicate alg', (kid) => `{"alg":"none","alg":"EdDSA","kid":"${kid}"}`, false],
  ['no kid', () => '{"alg":"EdDSA"}', false],
];

describe.skipIf(missing !== null)('JWS header tricks signed by the producer: the verifier and the offline script agree', () => {
  it.each(headers)(
    '%s',
    async (name, header, valid) => {
      const base = join(fixture.dir, `jws-${name.replace(/\W+/g, '-')}.zip`);
      const entries = await readAllEntries(await writeProducerSigned(fixture.app, key, new Map(genuine), base));
      const attestation = JSON.parse((entries.get('attestation.json') as Buffer).toString('utf8')) as Attestation;
      const signer = await attestationKey(fixture.app);
      const payload = Buffer.from(attestation.jws.compact.split('.')[1] as string, 'base64url');
      const protectedHeader = Buffer.from(header(signer.kid)).toString('base64url');
      const encoded = header('').includes('"b64":false') ? payload.toString('utf8') : payload.toString('base64url');
      const input = `${protectedHeader}.${encoded}`;
      attestation.jws.compact = `${input}.${sign(null, Buffer.from(input), signer.privateKey).toString('base64url')}`;
      attestation.hmac = hmacSha256(key, attestationSigningInput(attestation));
      entries.set('attestation.json', Buffer.from(jcs(attestation)));
      await writeEntries(base, entries);
      const [product, offline] = await Promise.all([productVerdict(base), scriptVerdict(base)]);
      expect({ product: product.overall_valid, script: offline.code }).toEqual({ product: valid, script: valid ? 0 : 1 });
      if (!valid) expect(product.checks.find((check) => check.name === 'signature')?.status).toBe('fail');
    },
    60_000,
  );
});

/** DER: a tag and its body. */
const der = (tag: number, body: Buffer): Buffer => {
  const n = body.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const integer = (n: number) => der(0x02, Buffer.from([n]));
const oid = (dotted: string): Buffer => {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const groups: number[] = [];
    for (let v = arc; groups.length === 0 || v > 0; v = Math.floor(v / 128)) groups.unshift(v % 128);
    bytes.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return der(0x06, Buffer.from(bytes));
};
const generalizedTime = (date: Date) => der(0x18, Buffer.from(`${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`));

/**
 * What a hand-made token changes: TSTInfo version, its `tsa` name (a directoryName with one CN, or a dNSName),
 * cms arguments of more signers.
 */
type TokenVariant = { version?: number; tsaName?: string; tsaDns?: string; alsoSigners?: string[]; trailing?: Buffer };

/**
 * An RFC 3161 response whose genTime the caller picks (openssl ts -reply always stamps now): the TSTInfo in DER,
 * signed by the TSA's key with `openssl cms -sign -cades` (ESSCertIDv2), wrapped in a granted TimeStampResp.
 */
const tokenAt = async (tsa: string, digest: Buffer, genTime: Date, token: TokenVariant = {}): Promise<Buffer> => {
  const info = sequence(
    integer(token.version ?? 1),
    oid('1.3.6.1.4.1.55555.1.1'),
    sequence(sequence(oid('2.16.840.1.101.3.4.2.1'), der(0x05, Buffer.alloc(0))), der(0x04, digest)),
    integer(7),
    generalizedTime(genTime),
    // tsa [0] GeneralName: a directoryName [4] holding one CN, or a dNSName [2].
    ...(token.tsaName === undefined
      ? []
      : [der(0xa0, der(0xa4, sequence(der(0x31, sequence(oid('2.5.4.3'), der(0x0c, Buffer.from(token.tsaName)))))))]),
    ...(token.tsaDns === undefined ? [] : [der(0xa0, der(0x82, Buffer.from(token.tsaDns)))]),
  );
  writeFileSync(join(tsa, 'tstinfo.der'), info);
  const cms = ['cms', '-sign', '-binary', '-nodetach', '-cades', '-md', 'sha256', '-outform', 'DER'];
  const econtent = ['-econtent_type', '1.2.840.113549.1.9.16.1.4', '-signer', 'tsa.pem', '-inkey', 'tsa.key'];
  await run('openssl', [...cms, ...econtent, ...(token.alsoSigners ?? []), '-in', 'tstinfo.der', '-out', 'token.der'], { cwd: tsa });
  return Buffer.concat([sequence(sequence(integer(0)), readFileSync(join(tsa, 'token.der'))), token.trailing ?? Buffer.alloc(0)]);
};

const tsaExtensions = 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n';

/** A root and a TSA certificate (critical timeStamping EKU unless `extensions` says otherwise), valid from now on. */
const makeTsa = async (dir: string, extensions = tsaExtensions): Promise<void> => {
  mkdirSync(dir);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const ca = ['-keyout', 'ca.key', '-out', 'ca.pem', '-days', '30', '-subj', '/CN=Red Team Root'];
  await run('openssl', ['req', '-x509', ...ec, ...ca, '-addext', 'basicConstraints=critical,CA:TRUE'], { cwd: dir });
  await run('openssl', ['req', ...ec, '-keyout', 'tsa.key', '-out', 'tsa.csr', '-subj', '/CN=Red Team TSA'], { cwd: dir });
  writeFileSync(join(dir, 'ext.cnf'), extensions);
  const sign = ['-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '30', '-extfile', 'ext.cnf'];
  await run('openssl', ['x509', '-req', '-in', 'tsa.csr', '-out', 'tsa.pem', ...sign], { cwd: dir });
};

describe.skipIf(missing !== null)('RFC 3161 tokens with a chosen genTime: the verifier and the offline script agree', () => {
  const day = 86_400_000;
  const keyUsage = (usage: string) => tsaExtensions.replace('digitalSignature', usage);
  const withAltName = `${tsaExtensions}subjectAltName=DNS:tsa.red-team.test\n`;
  it.each([
    ['stamped now', 0, tsaExtensions, true],
    ['backdated a day, before the TSA certificate existed', -day, tsaExtensions, false],
    [
      'a TSA certificate whose key usage also allows key encipherment and certificate signing',
      0,
      keyUsage('digitalSignature,keyEncipherment,keyCertSign'),
      false,
    ],
    ['a TSA certificate with key usage nonRepudiation only', 0, keyUsage('nonRepudiation'), true],
    ['a TSA certificate with a non-critical EKU', 0, tsaExtensions.replace('extendedKeyUsage=critical,', 'extendedKeyUsage='), false],
    [
      'a second signature beside the TSA one (RFC 3161 2.4.2: none other)',
      0,
      tsaExtensions,
      false,
      { alsoSigners: ['-signer', 'ca.pem', '-inkey', 'ca.key'] },
    ],
    ['TSTInfo version 2', 0, tsaExtensions, false, { version: 2 }],
    ['a tsa field naming another TSA than the signer', 0, tsaExtensions, false, { tsaName: 'Famous Timestamp Authority' }],
    ['a tsa field naming the signer', 0, tsaExtensions, true, { tsaName: 'Red Team TSA' }],
    ['a tsa field naming the signer by its subjectAltName', 0, withAltName, true, { tsaDns: 'tsa.red-team.test' }],
    ['a tsa field naming a DNS name the signer does not carry', 0, withAltName, false, { tsaDns: 'tsa.elsewhere.test' }],
    // Outside everything the TSA signed: openssl ts alone would ignore them.
    ['a byte after the TimeStampResp', 0, tsaExtensions, false, { trailing: Buffer.from([0]) }],
    ['a second TimeStampResp-sized tail of zeros', 0, tsaExtensions, false, { trailing: Buffer.alloc(64) }],
  ])(
    '%s',
    async (name, offset, extensions, valid, variant?: TokenVariant) => {
      const tsa = join(fixture.dir, `tsa-${name.replace(/\W+/g, '-')}`);
      await makeTsa(tsa, extensions);
      const zip = join(fixture.dir, `${name.replace(/\W+/g, '-')}.zip`);
      await writeProducerSigned(fixture.app, key, new Map(genuine), zip, {
        token: (digest) => tokenAt(tsa, digest, new Date(Date.now() + offset), variant),
      });
      const root = join(tsa, 'ca.pem');
      const [product, offline] = await Promise.all([productVerdict(zip, root), scriptVerdict(zip, root)]);
      expect({ product: product.overall_valid, script: offline.code }).toEqual({ product: valid, script: valid ? 0 : 1 });
      if (valid) return;
      expect(product.checks.find((check) => check.name === 'timestamp')?.status).toBe('fail');
      expect(offline.stdout).toMatch(/^FAIL {2}timestamp/m);
    },
    60_000,
  );
});

/** The two signed JSON entries in another spelling or with a field of another type: both must refuse. */
const signedJson: Array<[string, (e: Entries) => Promise<void>, RegExp]> = [
  [
    'manifest.json with a space (not RFC 8785)',
    async (e) => {
      const zip = join(fixture.dir, 'respelt-manifest.zip');
      await writeProducerSigned(fixture.app, key, e, zip, { respell: (bytes) => Buffer.from(`{ ${bytes.toString('utf8').slice(1)}`) });
      for (const [name, bytes] of await readAllEntries(zip)) e.set(name, bytes);
    },
    /manifest\.json is not in RFC 8785 canonical form/,
  ],
  [
    'manifest.json with schema_version true',
    async (e) => {
      editText(e, 'manifest.json', (t) => t.replace('"schema_version":1', '"schema_version":true'));
      const zip = join(fixture.dir, 'manifest-version.zip');
      for (const [name, bytes] of await readAllEntries(await writeProducerSigned(fixture.app, key, e, zip))) e.set(name, bytes);
    },
    /manifest\.json does not have the expected structure/,
  ],
  [
    'attestation.json with a space (not RFC 8785)',
    async (e) => {
      await signed(e);
      editText(e, 'attestation.json', (t) => `{ ${t.slice(1)}`);
    },
    /attestation\.json is not in RFC 8785 canonical form/,
  ],
  [
    'attestation.json with schema_version 3',
    async (e) => {
      await signed(e);
      const attestation = JSON.parse((e.get('attestation.json') as Buffer).toString('utf8')) as Attestation;
      (attestation as { schema_version: number }).schema_version = 3;
      attestation.hmac = hmacSha256(key, attestationSigningInput(attestation));
      e.set('attestation.json', Buffer.from(jcs(attestation)));
    },
    /attestation\.json does not have the expected structure/,
  ],
];

/** `e` as the producer signs it. */
const signed = async (e: Entries): Promise<void> => {
  const zip = join(fixture.dir, 'signed.zip');
  for (const [name, bytes] of await readAllEntries(await writeProducerSigned(fixture.app, key, e, zip))) e.set(name, bytes);
};

describe.skipIf(missing !== null)('signed JSON entries spelt or typed otherwise: the verifier and the offline script agree', () => {
  it.each(signedJson)(
    '%s',
    async (name, edit, reason) => {
      const entries = new Map(genuine);
      await edit(entries);
      const zip = join(fixture.dir, `${name.replace(/\W+/g, '-')}.zip`);
      await writeEntries(zip, entries);
      const [product, offline] = await Promise.all([productVerdict(zip), scriptVerdict(zip)]);
      expect({ product: product.overall_valid, script: offline.code }).toEqual({ product: false, script: 1 });
      expect(product.errors.join('\n')).toMatch(reason);
      expect(offline.stdout).toMatch(reason);
    },
    60_000,
  );
});
