import { readFileSync } from 'node:fs';
import { type App, createApp } from '../app.ts';
import { parseOptions } from '../cli/args.ts';
import type { CliCommand } from '../cli/command.ts';
import { defaultDataDir } from '../config/data-dir.ts';
import { SFCECClient } from './client.ts';
import type { BundleVerificationResult } from './types.ts';

const verifyUsage = 'svc verify FILE.zip [--key K | --public-key FILE] [--json] [--data-dir DIR]';
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
  process.stdout.write(`Bundle ${result.bundle_id || '(unknown)'}: ${result.overall_valid ? 'VALID' : 'INVALID'}\n`);
  for (const check of result.checks) {
    process.stdout.write(`  ${check.status.toUpperCase().padEnd(7)} ${check.name}\n`);
    for (const error of check.errors) process.stdout.write(`          ${error}\n`);
  }
  if (result.timestamp_kind === 'stub')
    process.stdout.write('  note: the timestamp is a stub (no TSA was configured); it attests no time\n');
};

/** `svc verify`: exit 0 valid, 1 invalid, 2 error (missing file, bad arguments). */
export const verifyCommand: CliCommand = {
  name: 'verify',
  usage: verifyUsage,
  summary: 'Verify an evidence bundle offline: manifest HMAC, entry digests, Ed25519 signature, chain proof, timestamp',
  run: async (argv) => {
    const { values, positionals } = parseOptions(argv, {
      key: { type: 'string' },
      'public-key': { type: 'string' },
      json: { type: 'boolean' },
      'data-dir': { type: 'string' },
    });
    const [file] = positionals;
    if (file === undefined || positionals.length !== 1 || (values.key !== undefined && values['public-key'] !== undefined)) {
      process.stderr.write(`Usage: ${verifyUsage}\n`);
      return 2;
    }
    const publicKey = values['public-key'] === undefined ? undefined : readFileSync(values['public-key'], 'utf8');
    // With an explicit key nothing from the data dir is needed: an auditor's machine stays untouched.
    const explicit = values.key !== undefined || publicKey !== undefined;
    const dataDir = explicit ? ':memory:' : (values['data-dir'] ?? defaultDataDir());
    const result = await withApp(dataDir, (app) =>
      new SFCECClient({ app }).verifyBundle(file, {
        ...(values.key === undefined ? {} : { key: values.key }),
        ...(publicKey === undefined ? {} : { publicKey }),
      }),
    );
    if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else printVerification(result);
    return result.overall_valid ? 0 : 1;
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
