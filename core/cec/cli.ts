import { readFileSync } from 'node:fs';
import { type App, createApp } from '../app.ts';
import { parseOptions } from '../cli/args.ts';
import type { CliCommand } from '../cli/command.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { withBundleFile } from './remote-bundle.ts';
import type { BundleVerificationResult } from './types.ts';

const verifyUsage = 'svc verify FILE.zip|s3://BUCKET/KEY|URL [--key K] [--public-key FILE]... [--tsa-ca FILE]... [--json] [--data-dir DIR]';
const buildUsage = 'svc build --project P --from YYYY-MM-DD --to YYYY-MM-DD [--frameworks a,b] [--out DIR] [--data-dir DIR] [--json]';

const withApp = async <T>(dataDir: string, run: (app: App) => Promise<T>): Promise<T> => {
  const app = createApp({ dataDir });
  try {
    return await run(app);
  } finally {
    app.close();
  }
};

const printVerification = (result: BundleVerificationResult): void => {
  const out: string[] = [`Bundle ${result.bundle_id || '(unknown)'}: ${result.overall_valid ? 'VALID' : 'INVALID'}`];
  for (const check of result.checks) {
    out.push(`  ${check.status.toUpperCase().padEnd(7)} ${check.name.padEnd(9)} ${check.summary}`);
    for (const error of check.errors.slice(check.summary === check.errors[0] ? 1 : 0)) out.push(`          ${error}`);
  }
  const stamp = result.timestamp;
  if (stamp?.kind === 'rfc3161')
    out.push(`  timestamp: ${stamp.gen_time ?? '?'} by ${stamp.tsa ?? '?'} (serial ${stamp.serial ?? '?'}, policy ${stamp.policy ?? '?'})`);
  if (stamp?.kind === 'stub') out.push('  note: the timestamp is a stub (no TSA was configured); it attests no time');
  if (result.anchors !== null) {
    const { lag, anchors } = result.anchors;
    const secs = (value: number | null) => (value === null ? 'n/a' : `${Math.round(value)} s`);
    out.push(
      `  anchors: ${anchors.map((a) => `seq ${a.seq} ${a.kind}${a.time ? ` at ${a.time}` : ''}${a.tsa ? ` by ${a.tsa}` : ''}`).join('; ') || 'none'}`,
    );
    out.push(
      `  anchoring lag: max ${secs(lag.max_seconds)}, p50 ${secs(lag.p50_seconds)}, p95 ${secs(lag.p95_seconds)}; ${lag.unanchored} of ${lag.records} records with no anchor after them`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
};

/** Reads files named on the command line; exit 2 (usage error) when one is unreadable. */
const readFiles = (paths: readonly string[] | undefined): string[] => (paths ?? []).map((path) => readFileSync(path, 'utf8'));

/** `svc verify`: exit 0 valid, 1 invalid, 2 error (missing file, bad arguments, not a ZIP). */
export const verifyCommand: CliCommand = {
  name: 'verify',
  usage: verifyUsage,
  summary:
    'Verify an evidence bundle (a path, s3:// or a presigned URL): ZIP structure, manifest HMAC, entry digests, Ed25519 signature, chain, timestamp',
  run: async (argv) => {
    const { values, positionals } = parseOptions(argv, {
      key: { type: 'string' },
      'public-key': { type: 'string', multiple: true },
      'tsa-ca': { type: 'string', multiple: true },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    });
    const [file] = positionals;
    if (file === undefined || positionals.length !== 1) {
      process.stderr.write(`Usage: ${verifyUsage}\n`);
      return 2;
    }
    let publicKeys: string[];
    let tsaCaPem: string[];
    try {
      publicKeys = readFiles(values['public-key']);
      tsaCaPem = readFiles(values['tsa-ca']);
    } catch (error) {
      process.stderr.write(`Cannot read a key or certificate file: ${(error as Error).message}\n`);
      return 2;
    }
    // With an explicit trust input nothing from the data dir is used: an auditor's machine stays untouched.
    const explicit = values.key !== undefined || publicKeys.length > 0;
    const dataDir = explicit ? ':memory:' : (values['data-dir'] ?? defaultDataDir());
    const result = await withApp(dataDir, (app) =>
      withBundleFile(app, file, (path) =>
        new SFCECClient({ app }).verifyBundle(path, {
          ...(values.key === undefined ? {} : { key: values.key }),
          ...(publicKeys.length === 0 ? {} : { publicKeys }),
          ...(tsaCaPem.length === 0 ? {} : { tsaCaPem }),
        }),
      ),
    );
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else printVerification(result);
    return result.overall_valid ? 0 : 1;
  },
};

/** `svc public-key`: prints this install's Ed25519 public key and its RFC 7638 thumbprint, to publish. */
export const publicKeyCommand: CliCommand = {
  name: 'public-key',
  usage: 'svc public-key [--json] [--data-dir DIR]',
  summary: "Print this install's bundle-signing public key (PEM) and its RFC 7638 thumbprint, to publish out of band",
  run: async (argv) => {
    const { values } = parseOptions(argv, { json: { type: 'boolean' }, 'data-dir': { type: 'string' } });
    const key = await withApp(values['data-dir'] ?? defaultDataDir(), (app) => exportPublicKey(app));
    if (values.json) process.stdout.write(`${JSON.stringify({ ...key, thumbprint: key.kid }, null, 2)}\n`);
    else process.stdout.write(`${key.pem.trimEnd()}\nRFC 7638 thumbprint (SHA-256): ${key.kid}\n`);
    return 0;
  },
};

/** `svc build`: builds a bundle from the data dir's evidence store. */
export const buildCommand: CliCommand = {
  name: 'build',
  usage: buildUsage,
  summary: 'Build a signed evidence bundle (ZIP) for a project and an inclusive date range',
  run: async (argv) => {
    const { values, positionals } = parseOptions(argv, {
      project: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      frameworks: { type: 'string' },
      out: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0 || values.project === undefined || values.from === undefined || values.to === undefined) {
      process.stderr.write(`Usage: ${buildUsage}\n`);
      return 2;
    }
    const { project, from, to } = values;
    const frameworks = values.frameworks
      ?.split(',')
      .map((value) => value.trim())
      .filter((value) => value !== '');
    const result = await withApp(values['data-dir'] ?? defaultDataDir(), (app) =>
      new SFCECClient({ app }).buildBundle(project, [from, to], frameworks, {
        ...(values.out === undefined ? {} : { outputDir: values.out }),
        onProgress: (done, total) => process.stderr.isTTY && process.stderr.write(`\r\x1b[Kbuild: ${done}/${total} records`),
      }),
    );
    if (process.stderr.isTTY) process.stderr.write('\n');
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const total = Object.values(result.record_counts).reduce((a, b) => a + b, 0);
      process.stdout.write(`Built ${result.bundle_id} with ${total} records\n  ${result.zip_path}\n  ${result.hmac_manifest}\n`);
    }
    return 0;
  },
};
